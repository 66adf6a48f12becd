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

    /// Whether (x, y) maps a pixel or more inside the photo: a pixel nearer its edge than that
    /// is resampled half from the padding.
    func contains(_ x: Double, _ y: Double) -> Bool {
        // Past the projection's horizon: nowhere in the photo.
        guard let point = back.applyInFront(x, y) else { return false }
        return point.x >= 1 && point.y >= 1 && point.x <= Double(width) - 1 && point.y <= Double(height) - 1
    }

    /// Whether the pixels x..<x1, y..<y1 all come from inside the photo (their four corners do;
    /// the map keeps lines straight, and the photo's inside is convex).
    func contains(x: Int, y: Int, x1: Int, y1: Int) -> Bool {
        let (left, top, right, bottom) = (Double(x), Double(y), Double(x1), Double(y1))
        return contains(left, top) && contains(right, top) && contains(left, bottom) && contains(right, bottom)
    }
}
