// PNG files through libpng (a system library, as libzmq is): 8-bit RGBA in, a PNG's bytes out,
// and back, for the tests that check what was written.

import CPNG

public struct PNGError: Error, CustomStringConvertible {
    public let description: String
}

public enum PNGFile {
    /// The PNG of `width` x `height` RGBA pixels, rows top first.
    public static func encode(width: Int, height: Int, rgba pixels: [UInt8]) throws(PNGError) -> [UInt8] {
        guard width > 0, height > 0, pixels.count == width * height * 4 else {
            throw PNGError(description: "a \(width)x\(height) image needs \(width * height * 4) bytes of pixels, not \(pixels.count)")
        }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = gridlock_png_format_rgba()
        var size = 0
        // First the size it needs, then the image itself.
        let sized = pixels.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, png_int_32(width * 4), nil) }
        guard sized != 0, size > 0 else { throw error(image, doing: "size") }
        var bytes = [UInt8](repeating: 0, count: size)
        let written = bytes.withUnsafeMutableBytes { out in
            pixels.withUnsafeBytes { png_image_write_to_memory(&image, out.baseAddress, &size, 0, $0.baseAddress, png_int_32(width * 4), nil) }
        }
        guard written != 0 else { throw error(image, doing: "write") }
        return Array(bytes.prefix(size))
    }

    /// A PNG's pixels as 8-bit RGBA, whatever its own format.
    public static func decode(_ bytes: [UInt8], maximumPixels: Int = 100_000_000) throws(PNGError) -> (width: Int, height: Int, rgba: [UInt8]) {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let begun = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw error(image, doing: "read") }
        image.format = gridlock_png_format_rgba()
        let width = Int(image.width), height = Int(image.height)
        // Checked before the pixels are allocated: a small file may claim a huge picture.
        guard width > 0, height > 0, width * height <= maximumPixels else {
            png_image_free(&image)
            throw PNGError(description: "a PNG of \(width)x\(height) pixels is too large to read")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, png_int_32(width * 4), nil) }
        guard finished != 0 else { throw error(image, doing: "read") }
        return (width, height, pixels)
    }

    private static func error(_ image: png_image, doing what: String) -> PNGError {
        var message = image.message
        let text = withUnsafeBytes(of: &message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return PNGError(description: "libpng could not \(what) the image: \(text.isEmpty ? "no reason given" : text)")
    }
}
