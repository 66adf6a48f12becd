// Which points of a rectified picture come from the photo. The rectified copy of a slanted
// frame is padded where it reaches past the photo's edge, and past a slanted cut the padding
// can fill one end row's strip beside the board and pass for the chute's notch. What the rules
// read round the board must stop where the photo does.

struct PhotoBounds {
    /// Takes the rectified picture's points to the photo's.
    let back: Homography
    let width: Int
    let height: Int

    func contains(_ x: Double, _ y: Double) -> Bool {
        let point = back.apply(x, y)
        // Past the projection's horizon: nowhere in the photo.
        guard point.x.isFinite, point.y.isFinite else { return false }
        return point.x >= 0 && point.y >= 0 && point.x <= Double(width) && point.y <= Double(height)
    }
}
