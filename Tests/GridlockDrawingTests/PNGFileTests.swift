// PNG files through libpng: what is written reads back pixel for pixel.

import Foundation
import GridlockCore
import PNGFile
import Testing

@testable import GridlockDrawing

@Suite("PNG files")
struct PNGFileTests {
    @Test("a board drawn to pixels and written as PNG reads back the same")
    func roundTrip() throws {
        let puzzle = try #require(try ParsedPuzzle.parse("17 BCoDEEBCoDooBCoAAFooooGFooooGHIIJJGH 5911").rushHour)
        let raster = Raster(BoardScene.scene(.rushHour(puzzle), title: "t"), scale: 0.5)
        let bytes = try PNGFile.encode(width: raster.width, height: raster.height, rgba: raster.pixels)
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try PNGFile.decode(bytes)
        #expect(decoded.width == raster.width && decoded.height == raster.height)
        #expect(decoded.rgba == raster.pixels)
    }

    @Test("pixels that do not fill the image, and bytes that are no PNG, are refused with a reason")
    func refusals() {
        #expect(throws: PNGError.self) { try PNGFile.encode(width: 2, height: 2, rgba: [0, 0, 0]) }
        do {
            _ = try PNGFile.decode(Array("not a png at all".utf8))
            Issue.record("decoded text as a PNG")
        } catch {
            #expect(error.description.contains("libpng could not read"), "\(error)")
        }
    }
}
