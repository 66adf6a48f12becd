// A printed mark as the digit reader sees it: how much ink covers each pixel of a small patch
// (0 paper, 255 ink), whether it came from a font drawn at build time or from a scanned cell.

public struct InkPatch: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// Rows top first.
    public var ink: [UInt8]

    public init(width: Int, height: Int, ink: [UInt8]) {
        precondition(width >= 0 && height >= 0 && ink.count == width * height, "a \(width)x\(height) patch needs \(width * height) values")
        self.width = width
        self.height = height
        self.ink = ink
    }

    @inline(__always)
    public subscript(x: Int, y: Int) -> UInt8 { ink[y * width + x] }

    /// The smallest rectangle holding every pixel with at least `threshold` ink, as
    /// (x0, y0, x1, y1) with x1 and y1 past the end; nil when there is none.
    public func inkBounds(threshold: UInt8) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        var x0 = width, y0 = height, x1 = 0, y1 = 0
        for y in 0..<height {
            for x in 0..<width where ink[y * width + x] >= threshold {
                x0 = min(x0, x); x1 = max(x1, x + 1)
                y0 = min(y0, y); y1 = max(y1, y + 1)
            }
        }
        return x1 > x0 ? (x0, y0, x1, y1) : nil
    }
}
