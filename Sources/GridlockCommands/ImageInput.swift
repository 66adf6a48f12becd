// Pictures wherever a puzzle file goes (solve, batch, bench, analyze...): a file that starts as a
// PNG or a JPEG is scanned (`gridlock scan`'s rules) and read as the puzzle it shows. A picture
// that cannot be read stops the command before anything runs, naming the file and the reason.

import Foundation
import GridlockCluster
import GridlockScan
import ImageFile

enum ImageInput {
    /// The board a picture shows, as text `solve` reads; nil when the file is no picture.
    static func puzzleText(_ path: String) throws -> String? {
        // Only a regular file is looked into: a pipe's or a FIFO's first bytes, read here,
        // would be lost to the text reader after it (and a FIFO with no writer would block).
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        let start = (try? handle.read(upToCount: 8)).map { Array($0) } ?? []
        try? handle.close()
        guard ImageFile.format(of: start) != nil else { return nil }
        switch ScanCommand.scan(path, kind: .auto) {
        case .success((.sudoku(let scanned), _)) where !scanned.uncertain.isEmpty:
            // A puzzle with a digit in doubt is not solved: its answer would be for another grid.
            throw CommandFailure("\(path): some digits of the Sudoku grid were read in doubt; check them (gridlock scan \(path) prints the grid) and solve the text instead:\n" + scanned.uncertain.map { "  \($0)" }.joined(separator: "\n"))
        case .success((let scanned, _)):
            return scanned.text
        case .failure(let problem):
            throw CommandFailure("\(path): the picture could not be read as a puzzle: \(problem.message)".printable)
        }
    }
}
