// Image files as pixels: PNG through libpng (PNGFile), JPEG through libjpeg-turbo (CJPEG), told
// apart by their first bytes, not their names. 8-bit RGBA out, rows top first.

import CJPEG
import Foundation
import PNGFile

public struct ImageFileError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

public enum ImageFile {
    /// The most pixels an image may have: a phone's screenshot is a few million, a 4K screen's
    /// eight; more is a mistake, or a small file claiming a huge picture to exhaust the memory.
    public static let maximumPixels = 16_000_000

    public enum Format: String, Sendable {
        case png, jpeg
    }

    /// The format the bytes start like, if any.
    public static func format(of bytes: [UInt8]) -> Format? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return nil
    }

    /// Whether a file of this name is taken for an image when a folder is read.
    public static func hasImageExtension(_ path: String) -> Bool {
        let lower = path.lowercased()
        return [".png", ".jpg", ".jpeg"].contains { lower.hasSuffix($0) }
    }

    /// The pixels of a PNG or JPEG file's bytes.
    public static func decode(_ bytes: [UInt8]) throws(ImageFileError) -> (width: Int, height: Int, rgba: [UInt8]) {
        switch format(of: bytes) {
        case .png:
            do {
                return try PNGFile.decode(bytes, maximumPixels: maximumPixels)
            } catch {
                throw ImageFileError(description: error.description)
            }
        case .jpeg:
            return try decodeJPEG(bytes)
        case nil:
            throw ImageFileError(description: "not a PNG or JPEG image (it does not start as one)")
        }
    }

    private static func decodeJPEG(_ bytes: [UInt8]) throws(ImageFileError) -> (width: Int, height: Int, rgba: [UInt8]) {
        var width: Int32 = 0, height: Int32 = 0
        var pixels: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer { buffer in
            gridlock_jpeg_decode(buffer.baseAddress, buffer.count, maximumPixels, &width, &height, &pixels, &message, message.count)
        }
        guard status == 0, let pixels else {
            throw ImageFileError(description: "libjpeg could not read the image: \(String(cString: message))")
        }
        defer { free(pixels) }
        return (Int(width), Int(height), Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4)))
    }

    /// RGBA pixels as a JPEG of `quality` (1-100): for the scanner's tests, which must read what
    /// a phone's lossy screenshot looks like.
    public static func encodeJPEG(width: Int, height: Int, rgba: [UInt8], quality: Int) throws(ImageFileError) -> [UInt8] {
        guard width > 0, height > 0, rgba.count == width * height * 4, (1...100).contains(quality) else {
            throw ImageFileError(description: "a \(width)x\(height) JPEG needs \(width * height * 4) bytes of pixels and a quality from 1 to 100")
        }
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = rgba.withUnsafeBufferPointer { buffer in
            gridlock_jpeg_encode(buffer.baseAddress, Int32(width), Int32(height), Int32(quality), &output, &size, &message, message.count)
        }
        guard status == 0, let output else {
            throw ImageFileError(description: "libjpeg could not write the image: \(String(cString: message))")
        }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
