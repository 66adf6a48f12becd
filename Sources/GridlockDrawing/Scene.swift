// What a picture is made of, before it becomes SVG text or PNG pixels: rectangles (rounded or
// not, plain or wood-grained), lines and short labels, in pixels from the top left. Both
// writers draw the same scene, so a board looks the same in the HTML report, in an SVG file and
// in a PNG.

/// An sRGB colour.
public struct Colour: Sendable, Hashable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `#rrggbb`, as SVG and CSS write it.
    public var hex: String {
        "#" + [red, green, blue].map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }

    /// This colour scaled towards black (factor < 1) or white (factor > 1).
    public func shaded(_ factor: Double) -> Colour {
        func channel(_ value: UInt8) -> UInt8 {
            let scaled = factor <= 1 ? Double(value) * factor : Double(value) + (255 - Double(value)) * (factor - 1)
            return UInt8(max(0, min(255, scaled.rounded())))
        }
        return Colour(channel(red), channel(green), channel(blue))
    }
}

/// How a rectangle is filled.
public enum Fill: Sendable, Hashable {
    case solid(Colour)
    /// Wood: the colour with grain running along the piece's long side; `seed` varies the
    /// grain from piece to piece.
    case wood(Colour, horizontal: Bool, seed: Int)

    /// The colour the fill averages to.
    public var baseColour: Colour {
        switch self {
        case .solid(let colour), .wood(let colour, _, _): colour
        }
    }
}

public struct Rectangle: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var centreX: Double { x + width / 2 }
    public var centreY: Double { y + height / 2 }

    /// Shrunk by `margin` on every side.
    public func inset(_ margin: Double) -> Rectangle {
        Rectangle(x: x + margin, y: y + margin, width: width - 2 * margin, height: height - 2 * margin)
    }
}

public enum Shape: Sendable, Hashable {
    /// A rectangle with corners rounded by `radius`, and an outline when `outline` is set.
    case box(Rectangle, radius: Double, fill: Fill, outline: Colour? = nil, role: String? = nil)
    /// A straight line.
    case line(x1: Double, y1: Double, x2: Double, y2: Double, colour: Colour, width: Double)
    /// A short label centred on a point: tile numbers, Sudoku digits. `size` is the height of
    /// a capital letter.
    case label(String, centreX: Double, centreY: Double, size: Double, colour: Colour, bold: Bool)
}

/// One picture: its size, its background and its shapes, drawn in order.
public struct Scene: Sendable, Hashable {
    public var width: Double
    public var height: Double
    public var background: Colour
    public var shapes: [Shape]
    /// Words for a screen reader and the SVG's title.
    public var title: String

    public init(width: Double, height: Double, background: Colour, shapes: [Shape] = [], title: String) {
        self.width = width
        self.height = height
        self.background = background
        self.shapes = shapes
        self.title = title
    }
}
