// Pictures wherever a puzzle file goes (solve, batch, bench, analyze...): a file that starts as a
// PNG or a JPEG is scanned (`gridlock scan`'s rules) and read as the board it shows. A picture
// that cannot be read stops the command before anything runs, naming the file and the reason.

import Foundation
import GridlockCluster
import GridlockScan
import ImageFile

enum ImageInput {
    /// The board a picture shows, as text `solve` reads; nil when the file is no picture.
    static func puzzleText(_ path: String) throws -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        let start = (try? handle.read(upToCount: 8)).map { Array($0) } ?? []
        try? handle.close()
        guard ImageFile.format(of: start) != nil else { return nil }
        switch ScanCommand.scan(path) {
        case .success((let scanned, _)):
            return (scanned.puzzle.databaseBoard ?? scanned.grid) + "\n"
        case .failure(let problem):
            throw CommandFailure("\(path): the picture could not be read as a board: \(problem.message)".printable)
        }
    }
}
