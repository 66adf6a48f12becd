// Writes the issue-45 test set to a folder for `gridlock scan` and for eyes: every case as
// DIR/NNNN-style-capture.png, and DIR/answers.txt with one line a picture: its file name, a
// space, the board's grid text with rows joined by `|`. Does nothing unless
// GRIDLOCK_SCAN_TESTSET=DIR is set (scripts/scan-testset sets it); GRIDLOCK_SCAN_TESTSET_COUNT
// sets how many (1,200 unless told). The drawing time per picture (wall, capture included,
// PNG writing not) is printed per style, as generating must stay well under 50 ms a picture
// in a release build for the set to be redrawn at will.

import Foundation
import GridlockCore
import GridlockScan
import PNGFile
import Testing

@Suite("the scan test set")
struct ScanTestSetWriter {
    static let directory = ProcessInfo.processInfo.environment["GRIDLOCK_SCAN_TESTSET"]

    @Test("writes every picture and its answer", .enabled(if: directory != nil, "set GRIDLOCK_SCAN_TESTSET=DIR to write the set"))
    func write() throws {
        let folder = URL(fileURLWithPath: try #require(Self.directory))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let count = ProcessInfo.processInfo.environment["GRIDLOCK_SCAN_TESTSET_COUNT"].flatMap(Int.init) ?? 1200
        let set = try ScanTestSet(count: count)
        var answers = ""
        var drawing: [BoardStyle: (total: Duration, pictures: Int)] = [:]
        let clock = ContinuousClock()
        for index in 0..<set.count {
            let start = clock.now
            let picture = try set.case(index)
            drawing[picture.style, default: (.zero, 0)].total += clock.now - start
            drawing[picture.style]!.pictures += 1
            let bytes = try PNGFile.encode(width: picture.image.width, height: picture.image.height, rgba: picture.image.pixels)
            try Data(bytes).write(to: folder.appendingPathComponent(picture.name + ".png"))
            answers += "\(picture.name).png \(picture.answer)\n"
        }
        try answers.write(to: folder.appendingPathComponent("answers.txt"), atomically: true, encoding: .utf8)
        var report = "scan test set: \(set.count) pictures in \(folder.path) (seed \(set.seed)); wall time to draw one, by style:\n"
        for style in BoardStyle.allCases {
            guard let (total, pictures) = drawing[style] else { continue }
            let milliseconds = Double(total.components.seconds) * 1000 + Double(total.components.attoseconds) / 1e15
            report += "  \(style.rawValue): \(String(format: "%.1f", milliseconds / Double(pictures))) ms (\(pictures) pictures)\n"
        }
        print(report)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("answers.txt").path))
    }
}
