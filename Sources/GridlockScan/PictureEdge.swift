import GridlockCore

/// Where a board runs out of the picture: one of its edges, or (for a rectified copy) past the
/// photo's horizon, where a slant too steep for the frame found puts part of it.
enum PictureEdge: String {
    case left, right, top, bottom, horizon

    init(_ side: RushHourSide) { self = side == .left ? .left : .right }
}
