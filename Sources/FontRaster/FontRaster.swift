// Glyphs of a font file drawn as grey coverage (0 paper, 255 ink), through FreeType. Used at
// build time, to train the Sudoku digit reader on installed fonts, and by the tests, which
// print grids in fonts the reader was and was not trained on.

import CFreeType

public struct GlyphBitmap: Sendable, Hashable {
    public var width: Int
    public var height: Int
    /// Coverage, rows top first: 0 none, 255 full.
    public var coverage: [UInt8]
    /// From the pen's position to the bitmap's left edge, and from the baseline up to its top.
    public var left: Int
    public var top: Int
}

public struct FontRasterError: Error, CustomStringConvertible {
    public let description: String
}

/// One font file open at one pixel size. Not shared across threads.
public final class FontFace {
    private var library: FT_Library?
    private var face: FT_Face?
    public let path: String

    public init(path: String) throws {
        self.path = path
        guard FT_Init_FreeType(&library) == 0 else { throw FontRasterError(description: "FreeType could not start") }
        guard FT_New_Face(library, path, 0, &face) == 0, face != nil else {
            FT_Done_FreeType(library)
            throw FontRasterError(description: "\(path): not a font FreeType reads")
        }
    }

    deinit {
        if let face { FT_Done_Face(face) }
        FT_Done_FreeType(library)
    }

    /// The glyph of `character` drawn with an em of `pixels` pixels, anti-aliased; nil when the
    /// font has no glyph for it.
    public func glyph(_ character: Character, pixels: Int) throws -> GlyphBitmap? {
        guard let face, let scalar = character.unicodeScalars.first else { return nil }
        guard FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixels)) == 0 else {
            throw FontRasterError(description: "\(path): cannot be drawn at \(pixels) pixels")
        }
        let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
        guard index != 0 else { return nil }
        guard FT_Load_Glyph(face, index, FT_Int32(gridlock_ft_load_render())) == 0, let slot = face.pointee.glyph else {
            throw FontRasterError(description: "\(path): the glyph of \(character) cannot be drawn")
        }
        let bitmap = slot.pointee.bitmap
        guard Int32(bitmap.pixel_mode) == gridlock_ft_pixel_mode_gray() else {
            throw FontRasterError(description: "\(path): FreeType drew \(character) without grey levels")
        }
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        // FreeType renders grey glyphs top row first (a positive pitch); anything else is refused
        // rather than read upside down.
        guard pitch >= width else { throw FontRasterError(description: "\(path): FreeType drew \(character) with a pitch of \(pitch)") }
        var coverage = [UInt8](repeating: 0, count: width * height)
        if let buffer = bitmap.buffer {
            for y in 0..<height {
                for x in 0..<width { coverage[y * width + x] = buffer[y * pitch + x] }
            }
        }
        return GlyphBitmap(width: width, height: height, coverage: coverage, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top))
    }
}
