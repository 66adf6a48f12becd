// How a drawn board reaches the scanner: as a screenshot (rescaled, a little blurred, turned a
// degree or two when cropped by hand, unevenly lit by a screen filter, noisy, saved as a JPEG)
// or as a photo of the screen (the camera tilted up to 15 degrees, so the board is a
// quadrilateral, a glare spot, uneven light, blur, sensor noise, JPEG). Each effect is drawn at
// random per picture, so the set mixes mild and harsh ones. JPEG is Perturbation's; its
// scaling and noise are redone here (Capture+Optics.swift) as this target compiles unoptimised,
// where theirs took a quarter of a second on a large picture. `screenshotMapped` / `photoMapped` also give where each
// point of the drawn picture lands (JPEG, noise, blur and light move nothing).

import Foundation
import GridlockCore
import GridlockScan

enum Capture: String, CaseIterable, Sendable {
    case screenshot, photo

    func apply(_ image: RGBAImage, random: inout SplitMix64) throws -> RGBAImage {
        switch self {
        case .screenshot: try Self.screenshot(image, random: &random)
        case .photo: try Self.photo(image, random: &random)
        }
    }

    static func screenshot(_ image: RGBAImage, random: inout SplitMix64) throws -> RGBAImage {
        try screenshotMapped(image, random: &random).image
    }

    static func photo(_ image: RGBAImage, random: inout SplitMix64) throws -> RGBAImage {
        try photoMapped(image, random: &random).image
    }

    /// A random mix of: scale 0.5-1.5x (blurred first when shrinking, as a phone's scaler
    /// averages), a turn of up to 3 degrees (the canvas grown to hold it, its corners the
    /// picture's corner colour), Gaussian blur (sigma up to 1.5), light
    /// uneven by up to 15%, noise (sigma up to 6), JPEG quality 50-95.
    static func screenshotMapped(_ image: RGBAImage, random: inout SplitMix64) throws -> (image: RGBAImage, map: Homography) {
        var out = image
        // The scale and the turn are one resampling: each pass cost as much as the drawing.
        let factor = random.below(10) < 6 ? 0.5 + Double(random.below(101)) / 100 : 1
        let turn = random.below(10) < 4 ? (Double(random.below(601)) / 100 - 3) * .pi / 180 : 0
        var map = Homography.identity
        if factor != 1 || turn != 0 {
            let source = factor < 0.8 ? gaussianBlurred(out, sigma: 0.5 / factor - 0.5) : out
            let turnAndScale = Homography(m: [factor * cos(turn), -factor * sin(turn), 0, factor * sin(turn), factor * cos(turn), 0, 0, 0, 1])
            (out, map) = resampled(source, by: turnAndScale, background: out.colour(0, 0))
        }
        if random.coinFlip() { out = gaussianBlurred(out, sigma: 0.3 + Double(random.below(121)) / 100) }
        if random.coinFlip() { out = unevenlyLit(out, by: Double(random.below(16)) / 100, random: &random) }
        if random.coinFlip() { out = noisy(out, sigma: Double(random.below(61)) / 10, random: &random) }
        if random.below(10) < 7 { out = try Perturbation.jpeg(out, quality: 50 + random.below(46)) }
        return (out, map)
    }

    /// The screen photographed: tilted up to 15 degrees (and turned a little, held at some
    /// distance), on a dark surround, with a glare spot, uneven light, blur, noise and JPEG.
    static func photoMapped(_ image: RGBAImage, random: inout SplitMix64) throws -> (image: RGBAImage, map: Homography) {
        let tilt = Double(random.below(1501)) / 100 * .pi / 180
        let (warped, map) = tilted(image, by: tilt, random: &random)
        var out = warped
        out = glared(out, strength: 0.1 + Double(random.below(26)) / 100, random: &random)
        out = unevenlyLit(out, by: Double(random.below(16)) / 100, random: &random)
        out = gaussianBlurred(out, sigma: 0.4 + Double(random.below(81)) / 100)
        out = noisy(out, sigma: 2 + Double(random.below(51)) / 10, random: &random)
        out = try Perturbation.jpeg(out, quality: 60 + random.below(33))
        return (out, map)
    }

    /// The picture through the affine `map`, on the least canvas that holds all of it (what
    /// `map` returns is shifted to that canvas's origin), its corners `background`; and the
    /// map from the picture to the result.
    static func resampled(_ image: RGBAImage, by map: Homography, background: RGB) -> (RGBAImage, Homography) {
        let corners = [(0.0, 0.0), (Double(image.width), 0), (0, Double(image.height)), (Double(image.width), Double(image.height))].map { map.apply($0.0, $0.1) }
        let minX = corners.map(\.x).min()!, minY = corners.map(\.y).min()!
        let width = max(1, Int((corners.map(\.x).max()! - minX).rounded())), height = max(1, Int((corners.map(\.y).max()! - minY).rounded()))
        let placed = Homography(m: [1, 0, -minX, 0, 1, -minY, 0, 0, 1]).after(map)
        return (placed.inverseOfAffine.resample(image, width: width, height: height, background: background), placed)
    }
}
