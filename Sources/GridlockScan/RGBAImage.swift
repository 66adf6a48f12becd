// A picture as the scanner reads it: 8-bit RGBA pixels, rows top first, and the few colour
// measures it uses. Colours are compared by the sum of their channels' differences (0-765):
// cheap, and enough to tell a block from the tray it sits on.

public struct RGBAImage: Sendable {
    public let width: Int
    public let height: Int
    /// width * height * 4 bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4, "a \(width)x\(height) image needs \(width * height * 4) bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A picture with its transparency laid over white, as a viewer shows it: the scanners
    /// read colour only, and black ink drawn in the alpha channel would otherwise vanish.
    public init(width: Int, height: Int, overWhite rgba: [UInt8]) {
        // Most pictures are opaque: they are looked over once, as a plain loop (through a
        // closure it took 5% of a phone screenshot's scan), and kept as they are.
        let opaque = rgba.withUnsafeBufferPointer { bytes in
            var all: UInt8 = 255
            var at = 3
            while at < bytes.count { all &= bytes[at]; at += 4 }
            return all == 255
        }
        var pixels = rgba
        if !opaque {
            for at in stride(from: 0, to: pixels.count, by: 4) where pixels[at + 3] != 255 {
                let alpha = Int(pixels[at + 3])
                for channel in 0..<3 { pixels[at + channel] = UInt8((Int(pixels[at + channel]) * alpha + 255 * (255 - alpha)) / 255) }
                pixels[at + 3] = 255
            }
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The colour at (x, y), clamped to the picture.
    @inline(__always)
    public func colour(_ x: Int, _ y: Int) -> RGB {
        let cx = min(max(x, 0), width - 1), cy = min(max(y, 0), height - 1)
        let at = (cy * width + cx) * 4
        return RGB(Int(pixels[at]), Int(pixels[at + 1]), Int(pixels[at + 2]))
    }

    /// The picture shrunk by a whole factor, each square of `factor` x `factor` pixels averaged
    /// (as a phone's scaler shrinks), to at most `maximumPixels`; itself when already small.
    public func reduced(toAtMost maximumPixels: Int) -> RGBAImage {
        let factor = reductionFactor(toAtMost: maximumPixels)
        guard factor > 1 else { return self }
        let w = width / factor, h = height / factor
        var out = [UInt8](repeating: 255, count: w * h * 4)
        // Each output row's channel sums gather `factor` source rows, each read straight
        // through, and are divided once, with wrapping arithmetic (a sum never passes
        // 255 * factor^2). Summing square by square, with overflow checks, a bounds-checked
        // write and a divide per channel, took a fifth of a phone screenshot's scan.
        var sums = [Int](repeating: 0, count: w * 3)
        let divide = ExactDivision(by: factor * factor)
        pixels.withUnsafeBufferPointer { source in
            out.withUnsafeMutableBufferPointer { target in
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in 0..<h {
                        sums.update(repeating: 0)
                        for dy in 0..<factor {
                            var at = (y * factor + dy) * width * 4
                            for x in 0..<w {
                                var red = 0, green = 0, blue = 0
                                for _ in 0..<factor {
                                    red &+= Int(source[at])
                                    green &+= Int(source[at &+ 1])
                                    blue &+= Int(source[at &+ 2])
                                    at &+= 4
                                }
                                sums[3 &* x] &+= red
                                sums[3 &* x &+ 1] &+= green
                                sums[3 &* x &+ 2] &+= blue
                            }
                        }
                        var to = y * w * 4
                        for x in 0..<w {
                            target[to] = UInt8(truncatingIfNeeded: divide(sums[3 * x]))
                            target[to + 1] = UInt8(truncatingIfNeeded: divide(sums[3 * x + 1]))
                            target[to + 2] = UInt8(truncatingIfNeeded: divide(sums[3 * x + 2]))
                            to += 4
                        }
                    }
                }
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }

    /// The whole factor `reduced` shrinks by: the least that brings the picture to at most
    /// `maximumPixels`, and never past one pixel a side (a 1 x 900,000 picture stays 1 wide).
    public func reductionFactor(toAtMost maximumPixels: Int) -> Int {
        var factor = 1
        while factor < min(width, height), (width / factor) * (height / factor) > maximumPixels { factor += 1 }
        return factor
    }

    /// The mean colour of the pixels in [x0, x1) x [y0, y1), clamped to the picture (a band
    /// asked for past its edge, as beside a board cropped to its frame, is cut or empty);
    /// black when empty.
    public func mean(x0: Int, y0: Int, x1: Int, y1: Int) -> RGB {
        let xs = Self.clamped(x0, max(x1, x0 + 1), to: width), ys = Self.clamped(y0, max(y1, y0 + 1), to: height)
        var sum = (0, 0, 0), count = 0
        for y in ys {
            for x in xs {
                let at = (y * width + x) * 4
                sum.0 += Int(pixels[at])
                sum.1 += Int(pixels[at + 1])
                sum.2 += Int(pixels[at + 2])
                count += 1
            }
        }
        guard count > 0 else { return RGB(0, 0, 0) }
        return RGB(sum.0 / count, sum.1 / count, sum.2 / count)
    }

    /// [start, end) within [0, limit): empty, never reversed, when it lies outside.
    static func clamped(_ start: Int, _ end: Int, to limit: Int) -> Range<Int> {
        let low = min(max(0, start), limit)
        return low..<max(low, min(limit, end))
    }
}

public struct RGB: Sendable, Hashable, CustomStringConvertible {
    public var red: Int
    public var green: Int
    public var blue: Int

    public init(_ red: Int, _ green: Int, _ blue: Int) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The sum of the channels' differences: 0 for the same colour, 765 for black and white.
    @inline(__always)
    public func distance(to other: RGB) -> Int {
        abs(red - other.red) + abs(green - other.green) + abs(blue - other.blue)
    }

    /// How far red stands out of the other two channels (the prisoner is red in every theme).
    public var redness: Int { red - max(green, blue) }

    /// The channels' sum, 0-765.
    public var brightness: Int { red + green + blue }

    /// The spread of the channels: 0 for a grey.
    public var saturation: Int { max(red, green, blue) - min(red, green, blue) }

    public var description: String { "#" + [red, green, blue].map { String($0, radix: 16).leftPadded(to: 2) }.joined() }

    /// The per-channel median of some colours.
    public static func median(_ colours: [RGB]) -> RGB {
        guard !colours.isEmpty else { return RGB(0, 0, 0) }
        func middle(_ values: [Int]) -> Int { values.sorted()[values.count / 2] }
        return RGB(middle(colours.map(\.red)), middle(colours.map(\.green)), middle(colours.map(\.blue)))
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
