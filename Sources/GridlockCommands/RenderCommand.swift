// `gridlock render`: one puzzle's board, or the board at any step of its solution, as SVG or
// PNG. The HTML report draws its boards with the same code (GridlockDrawing).

import ArgumentParser
import Foundation
import GridlockCore
import GridlockDrawing
import PNGFile

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a puzzle's board, or a step of its solution, as SVG or PNG.",
        usage: "gridlock render <puzzle> [<options>]",
        discussion: """
            Step 0 is the puzzle as given. A later step solves the puzzle first (with \
            --solver, else the kind's default) and draws the board after that many moves: \
            Rush Hour blocks in wood with the prisoner in red, the chute cut in the frame \
            and fixed blocks in slate; tiles; tilt blocks by colour, joined blocks drawn as \
            one; Sudoku givens, then one more solved cell a step in reading order.

            The format follows the output file's extension (.svg or .png) unless --format \
            says it; without -o, SVG goes to standard output (PNG too, unless that is a \
            terminal).

            Examples:
              gridlock render data/samples/unblockme.txt --line 10 -o board.svg
              gridlock render '00 ooooooooooooooooAAoooooooooooooooooo' -o a.png
              gridlock render data/samples/unblockme.txt --line 10 --step 4 \\
                  -o step4.png --scale 2
              gridlock render '8 6 7 2 5 4 3 0 1' --step 3 -o tiles.svg

            Exit status:
              0  the picture was written
              1  the puzzle could not be read, has no such step, or the file could
                 not be written
              2  the search for its solution was cut off (--timeout, --max-states)
              3  the solution failed validation
              64 the command line itself was wrong
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case svg, png
    }

    @OptionGroup var chosen: OnePuzzleOptions

    @Option(help: "The step to draw: 0 is the start, N the board after N moves.")
    var step = 0

    @Option(help: "The solver for steps after 0 (default: the kind's). \(SolverList.catalogue).", completion: SolverList.completion)
    var solver: String?

    @Option(help: "Stop the search for the solution after this many seconds.")
    var timeout: Double = 60

    @Option(help: "Stop the search for the solution once it holds this many states.")
    var maxStates = SolveOptions.defaultMaxStates

    @Option(help: "svg or png (default: from the output file's extension, else svg).")
    var format: Format?

    @Option(name: [.short, .customLong("output")], help: "The file to write (default: standard output).", completion: .file(extensions: ["svg", "png"]))
    var output: String?

    @Option(help: "PNG only: pixels per unit of the drawing, 0.25 to 8.")
    var scale = 1.0

    func validate() throws {
        guard step >= 0 else { throw ValidationError("--step must be 0 or more") }
        guard scale >= 0.25, scale <= 8 else { throw ValidationError("--scale must be between 0.25 and 8") }
        if let solver {
            try SolverList.check(solver, kind: chosen.reading.puzzleKind)
            guard SolverList.names(solver).count == 1 else { throw ValidationError("--solver takes one solver here") }
        }
        guard maxStates > 0 else { throw ValidationError("--max-states must be positive") }
        try TimeLimit.check(timeout)
        if let output, format == nil, Self.format(ofPath: output) == nil {
            throw ValidationError("cannot tell the format of \(output) from its extension: name a .svg or .png file, or pass --format")
        }
        if output == nil, format == .png, isatty(STDOUT_FILENO) == 1 {
            throw ValidationError("a PNG would garble the terminal: name a file with -o, or redirect standard output")
        }
    }

    static func format(ofPath path: String) -> Format? {
        Format(rawValue: URL(fileURLWithPath: path).pathExtension.lowercased())
    }

    func run() throws {
        do {
            try render()
        } catch let failure as StatusError {
            StandardError.write("Error: \(failure)\n")
            throw ExitCode(failure.exitCode)
        }
    }

    private func render() throws {
        let (parsed, source) = try chosen.puzzle()
        let frames = try steps(of: parsed)
        guard step < frames.count else {
            let moves = frames.count - 1
            throw StatusError("\(source): its solution has \(moves) step\(moves == 1 ? "" : "s") after the start (step 0), so there is no step \(step)", exitCode: 1)
        }
        let title = BoardScene.title(kind: parsed.kind, step: step)
        let scene = BoardScene.scene(frames[step], title: title)
        let chosen = format ?? output.flatMap(Self.format(ofPath:)) ?? .svg
        let bytes: [UInt8]
        switch chosen {
        case .svg:
            bytes = Array(SVGWriter.svg(scene).utf8)
        case .png:
            let raster = Raster(scene, scale: scale)
            bytes = try PNGFile.encode(width: raster.width, height: raster.height, rgba: raster.pixels)
        }
        try write(bytes, as: chosen)
    }

    /// The boards from the start to the end of the solution; only the start for step 0.
    private func steps(of parsed: ParsedPuzzle) throws -> [BoardFrame] {
        guard step > 0 else { return BoardFrame.steps(of: parsed, result: nil) }
        let name = solver ?? parsed.kind.defaultSolver
        guard parsed.hasSolver(name) else {
            throw StatusError("this is a \(parsed.kind.rawValue) puzzle, which \(name) does not solve; its solvers are \(parsed.kind.solverNames.joined(separator: ", "))", exitCode: 1)
        }
        let deadline = ContinuousClock.now.advanced(by: .seconds(timeout))
        let options = SolveOptions.until(deadline, SolveOptions(maxStates: maxStates))
        let result = parsed.solve(with: name, options: options)!
        switch result.status {
        case .cutoff:
            throw StatusError("\(name) was cut off (\(result.cutoffReason?.rawValue ?? "a limit")) before it found a solution: raise --timeout or --max-states", exitCode: 2)
        case .unsolvable:
            throw StatusError("the puzzle has no solution, so no step \(step): only step 0 can be drawn", exitCode: 1)
        case .solved:
            if let failure = parsed.validationFailure(of: result) {
                throw StatusError("\(name)'s solution failed validation: \(failure)", exitCode: 3)
            }
        }
        return BoardFrame.steps(of: parsed, result: result)
    }

    private func write(_ bytes: [UInt8], as format: Format) throws {
        guard let output else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        do {
            try OutputFile.write(Data(bytes), to: output, inputs: [chosen.puzzleArgument])
        } catch {
            throw StatusError("cannot write \(output): \(error)", exitCode: 1)
        }
    }
}

/// A render that could not be made: said on standard error, with its exit status.
