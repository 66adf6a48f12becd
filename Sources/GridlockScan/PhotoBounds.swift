// Which points of a rectified picture come from the photo. The rectified copy of a slanted
// frame is padded where it reaches past the photo's edge, and past a slanted cut the padding
// can fill one end row's strip beside the board and pass for the chute's notch. What the rules
// read round the board must stop where the photo does.

import GridlockCore

struct PhotoBounds {
    /// Takes the rectified picture's points to the photo's.
    let back: Homography
    let width: Int
    let height: Int

    func contains(_ x: Double, _ y: Double) -> Bool {
        // Past the projection's horizon: nowhere in the photo.
        guard let point = back.applyInFront(x, y) else { return false }
        return point.x >= 0 && point.y >= 0 && point.x <= Double(width) && point.y <= Double(height)
    }
}

/// Where a board runs out of the picture: one of its edges, or (for a rectified copy) past the
/// photo's horizon, where a slant too steep for the frame found puts part of it.
enum PictureEdge: String {
    case left, right, top, bottom, horizon

    init(_ side: RushHourSide) { self = side == .left ? .left : .right }
}
