// A picture's brightness (0 black, 255 white), and which pixels are ink: darker than their
// neighbourhood's mean by a margin. Comparing with the neighbourhood rather than one level for
// the whole picture keeps a print readable under a shadow or on cream paper.

public struct GreyImage: Sendable {
    public let width: Int
    public let height: Int
    public var luma: [UInt8]

    public init(_ image: RGBAImage) {
        let count = image.width * image.height
        width = image.width
        height = image.height
        var luma = [UInt8](repeating: 0, count: count)
        image.pixels.withUnsafeBufferPointer { rgba in
            for index in 0..<count {
                let at = index * 4
                // Rec. 601 weights in 1/256ths.
                let red: Int = 77 * Int(rgba[at]), green: Int = 150 * Int(rgba[at + 1]), blue: Int = 29 * Int(rgba[at + 2])
                luma[index] = UInt8((red + green + blue) >> 8)
            }
        }
        self.luma = luma
    }

    @inline(__always)
    public subscript(x: Int, y: Int) -> UInt8 { luma[y * width + x] }

    /// Ink: pixels darker than the mean of the square of side `window` around them by more than
    /// `margin`. One pass over an integral image.
    public func ink(window: Int, margin: Int) -> [Bool] {
        // The loops below read through raw buffers: a bad window or a resized luma would read
        // out of bounds rather than stop.
        precondition(window >= 1 && luma.count == width * height, "a window of at least 1 over \(width)x\(height) pixels")
        // Through raw buffers with wrapping arithmetic (a sum stays under 255 * width *
        // height): with bounds and overflow checks this map took a tenth of a phone
        // screenshot's scan.
        let stride = width &+ 1
        var integral = [Int](repeating: 0, count: stride * (height + 1))
        var ink = [Bool](repeating: false, count: width * height)
        let half = window / 2
        luma.withUnsafeBufferPointer { luma in
            integral.withUnsafeMutableBufferPointer { integral in
                for y in 0..<height {
                    var row = 0
                    for x in 0..<width {
                        row &+= Int(luma[y &* width &+ x])
                        integral[(y &+ 1) &* stride &+ x &+ 1] = integral[y &* stride &+ x &+ 1] &+ row
                    }
                }
            }
            integral.withUnsafeBufferPointer { integral in
                ink.withUnsafeMutableBufferPointer { ink in
                    for y in 0..<height {
                        let y0 = max(0, y &- half), y1 = min(height, y &+ half &+ 1)
                        for x in 0..<width {
                            let x0 = max(0, x &- half), x1 = min(width, x &+ half &+ 1)
                            let sum = integral[y1 &* stride &+ x1] &- integral[y0 &* stride &+ x1]
                                &- integral[y1 &* stride &+ x0] &+ integral[y0 &* stride &+ x0]
                            let area = (y1 &- y0) &* (x1 &- x0)
                            ink[y &* width &+ x] = Int(luma[y &* width &+ x]) &* area < sum &- margin &* area
                        }
                    }
                }
            }
        }
        return ink
    }
}

/// The ink's 8-connected pieces: a label a pixel (0 for paper) and each piece's extent.
public struct InkPieces: Sendable {
    public struct Piece: Sendable, Hashable {
        public var x0: Int, y0: Int, x1: Int, y1: Int
        public var pixels: Int
        public var width: Int { x1 - x0 }
        public var height: Int { y1 - y0 }
    }

    public let width: Int
    public let height: Int
    /// 1-based piece numbers; 0 for paper.
    public var labels: [Int32]
    /// pieces[label - 1].
    public var pieces: [Piece]

    /// Labels the ink in one pass with a union-find of provisional labels, then a second pass
    /// that gives each pixel its root.
    public init(ink: [Bool], width: Int, height: Int) {
        self.width = width
        self.height = height
        var labels = [Int32](repeating: 0, count: width * height)
        var parent: [Int32] = [0]
        func root(_ label: Int32) -> Int32 {
            var label = label
            while parent[Int(label)] != label {
                parent[Int(label)] = parent[Int(parent[Int(label)])]
                label = parent[Int(label)]
            }
            return label
        }
        func join(_ a: Int32, _ b: Int32) -> Int32 {
            let ra = root(a), rb = root(b)
            if ra == rb { return ra }
            let (low, high) = ra < rb ? (ra, rb) : (rb, ra)
            parent[Int(high)] = low
            return low
        }
        for y in 0..<height {
            for x in 0..<width where ink[y * width + x] {
                var label: Int32 = 0
                // Neighbours already seen: left, and the three above.
                func meet(_ nx: Int, _ ny: Int) {
                    guard nx >= 0, nx < width, ny >= 0 else { return }
                    let other = labels[ny * width + nx]
                    guard other != 0 else { return }
                    label = label == 0 ? root(other) : join(label, other)
                }
                meet(x - 1, y); meet(x - 1, y - 1); meet(x, y - 1); meet(x + 1, y - 1)
                if label == 0 {
                    label = Int32(parent.count)
                    parent.append(label)
                }
                labels[y * width + x] = label
            }
        }
        // Roots renumbered 1, 2, 3... in order of first appearance.
        var number = [Int32](repeating: 0, count: parent.count)
        var pieces: [Piece] = []
        for index in 0..<labels.count where labels[index] != 0 {
            let r = Int(root(labels[index]))
            if number[r] == 0 {
                pieces.append(Piece(x0: Int.max, y0: Int.max, x1: 0, y1: 0, pixels: 0))
                number[r] = Int32(pieces.count)
            }
            let label = number[r]
            labels[index] = label
            let x = index % width, y = index / width
            var piece = pieces[Int(label) - 1]
            piece.x0 = min(piece.x0, x); piece.x1 = max(piece.x1, x + 1)
            piece.y0 = min(piece.y0, y); piece.y1 = max(piece.y1, y + 1)
            piece.pixels += 1
            pieces[Int(label) - 1] = piece
        }
        self.labels = labels
        self.pieces = pieces
    }
}
