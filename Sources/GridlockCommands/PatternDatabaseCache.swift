// Where the tile pattern databases live between runs: built once (about half a minute), written
// to a cache file, read by every later solve and by each worker process.
//
//   $GRIDLOCK_CACHE, else $XDG_CACHE_HOME/gridlock, else ~/.cache/gridlock
//     pdb-6-6-3-blank-first.bin   the header line (with the tables' checksum), then
//                                 33,558,528 bytes of tables

import ArgumentParser
import Foundation
import GridlockCore
import GridlockWire

enum PatternDatabaseCache {
    static var directory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["GRIDLOCK_CACHE"] { return URL(fileURLWithPath: path) }
        let base = environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("gridlock")
    }

    static func file(goal: TileGoal, partition: TilePatternDatabase.Partition) -> URL {
        directory.appendingPathComponent("pdb-\(partition.rawValue)-\(goal.rawValue).bin")
    }

    /// Makes solves read the cache (and fill it when empty) instead of building in memory.
    /// Processes that need the same tables at once (a batch's workers) take turns on a lock
    /// file, so one builds and the others load what it saved.
    static func installLoader() {
        TilePatternDatabases.shared.setLoader { goal in
            // The 7-8 tables where `gridlock pdb build --partition 7-8` made them (never built
            // by a solve: minutes and gigabytes); else 6-6-3, built on first use.
            let ranked = file(goal: goal, partition: .sevenEight)
            if FileManager.default.fileExists(atPath: ranked.path) {
                do {
                    return try load(goal: goal, partition: .sevenEight)
                } catch {
                    StandardError.write("pdb: cannot read \(ranked.path) (\(error)); using the 6-6-3 tables\n")
                }
            }
            let lock = lockFile(goal: goal, partition: .sixSixThree)
            defer { if lock >= 0 { close(lock) } }
            if lock >= 0 { waitForLock(lock, what: "the 6-6-3 pattern databases of the \(goal.rawValue) goal") }
            return (try? load(goal: goal, partition: .sixSixThree)) ?? build(goal: goal, partition: .sixSixThree).database
        }
    }

    /// Takes the lock, saying on standard error that it waits, and for how long, every 5 s:
    /// another process building the tables holds it for half a minute or more, and a silent
    /// wait looks like a hang.
    static func waitForLock(_ lock: Int32, what: String, every interval: Double = 5) {
        guard flock(lock, LOCK_EX | LOCK_NB) != 0 else { return }
        let clock = ContinuousClock()
        let start = clock.now
        var said = -interval
        while flock(lock, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                // A lock that cannot be taken at all (a file system without locks): go on
                // without it, as an unwritable cache directory does.
                return
            }
            let waited = Double(seconds: start.duration(to: clock.now))
            if waited - said >= interval {
                StandardError.write("pdb: waiting for another process building \(what) since \(Int(waited)) s\n")
                said = waited
            }
            usleep(100_000)
        }
        StandardError.write("pdb: the other process finished \(what) after \(Double(seconds: start.duration(to: clock.now)).formatted(decimals: 1)) s\n")
    }

    /// An open lock file beside the tables' file; -1 when the cache directory cannot be made.
    static func lockFile(goal: TileGoal, partition: TilePatternDatabase.Partition) -> Int32 {
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return open(file(goal: goal, partition: partition).path + ".lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
    }

    /// The cached tables, checked to be the ones asked for (a file copied under another
    /// goal's name would bound the distance to the wrong goal), then mapped (`mapped`).
    static func load(goal: TileGoal, partition: TilePatternDatabase.Partition) throws -> TilePatternDatabase {
        try TilePatternDatabase(goal: goal, partition: partition, tables: try checkedTables(goal: goal, partition: partition))
    }

    /// The cached file's tables, mapped, once their checksum is the header's. `populate` reads
    /// every page in as it maps (as a solve wants); `pdb list` maps without, so that the pages
    /// it has checked can be dropped, and 550 MiB of 7-8 is not held at once.
    static func checkedTables(goal: TileGoal, partition: TilePatternDatabase.Partition, populate: Bool = true) throws -> PatternTableBytes {
        let (descriptor, header, count, checksum) = try openChecked(goal: goal, partition: partition)
        defer { close(descriptor) }
        let path = file(goal: goal, partition: partition).path
        let tables = try mapped(descriptor, path: path, skipping: header, count: count, populate: populate)
        try TilePatternDatabase.check(tables.withUnsafeBufferPointer { PatternTableChecksum.of(UnsafeRawBufferPointer($0)) }, against: checksum, file: path)
        return tables
    }

    /// The cached file of these tables, open, if it is what it should be: a regular file whose
    /// header names this goal and partition, of exactly the header's and the tables' size.
    /// The caller closes the descriptor.
    static func openChecked(goal: TileGoal, partition: TilePatternDatabase.Partition) throws -> (descriptor: Int32, header: Int, count: Int, checksum: UInt64) {
        let path = file(goal: goal, partition: partition).path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw PuzzleInputError(code: "bad-pattern-database", message: "cannot open \(path): \(String(cString: strerror(errno)))") }
        var handedOver = false
        defer { if !handedOver { close(descriptor) } }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw PuzzleInputError(code: "bad-pattern-database", message: "cannot read \(path): \(String(cString: strerror(errno)))") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw PuzzleInputError(code: "bad-pattern-database", message: "\(path) is not a regular file")
        }
        var prefix = [UInt8](repeating: 0, count: 64)
        let prefixRead = pread(descriptor, &prefix, prefix.count, 0)
        let header = try TilePatternDatabase.header(of: prefix.prefix(max(0, prefixRead)))
        guard header.goal == goal, header.partition == partition else {
            throw PuzzleInputError(
                code: "bad-pattern-database",
                message: "\(path) holds the \(header.partition.rawValue) tables of the \(header.goal.rawValue) goal, not \(partition.rawValue) of \(goal.rawValue)")
        }
        // Sized before anything is mapped: a file of another size (cut short, or a sparse file
        // of terabytes) is refused.
        let count = TilePatternDatabase.storageBytes(partition, goal: goal)
        guard Int(status.st_size) == header.length + count else {
            throw PuzzleInputError(
                code: "bad-pattern-database",
                message: "\(path) is \(Int(status.st_size)) bytes; the \(partition.rawValue) tables of the \(goal.rawValue) goal make \(header.length + count)")
        }
        handedOver = true
        return (descriptor, header.length, count, header.checksum)
    }

    /// The file's tables as a read-only shared mapping, every page read in at once
    /// (MAP_POPULATE): the pages are the file's page cache, so a batch's workers share one copy
    /// (7-8's 550 MiB once, not once a worker, as reading the file into an array gave), and no
    /// job's time or peak memory pays for faulting them in. The loader writes a new file under a
    /// new name and renames it over the old one, so a mapped file never changes under a solve;
    /// a file cut short by hand while mapped would end the process (SIGBUS).
    static func mapped(_ descriptor: Int32, path: String, skipping header: Int, count: Int, populate: Bool = true) throws -> PatternTableBytes {
        let length = header + count
        let flags = MAP_SHARED | (populate ? Int32(MAP_POPULATE) : 0)
        guard let mapping = mmap(nil, length, PROT_READ, flags, descriptor, 0), mapping != MAP_FAILED else {
            throw PuzzleInputError(code: "bad-pattern-database", message: "cannot map \(path): \(String(cString: strerror(errno)))")
        }
        return PatternTableBytes(unsafeBase: UnsafeRawPointer(mapping + header), count: count) { base in
            munmap(UnsafeMutableRawPointer(mutating: base - header), length)
        }
    }

    /// Builds, saves and reports on standard error. A failed save only costs the next run a rebuild.
    @discardableResult
    static func build(goal: TileGoal, partition: TilePatternDatabase.Partition) -> (database: TilePatternDatabase, seconds: Double, saved: URL?) {
        let clock = ContinuousClock()
        let start = clock.now
        let expected = partition.isRanked ? "about 17 minutes and 4.6 GiB of memory here" : "once; about half a minute"
        StandardError.write("pdb: building the \(partition.rawValue) pattern databases for the \(goal.rawValue) goal (\(expected))\n")
        let groups = partition.rawValue.split(separator: "-").count
        var current = 0
        let database = TilePatternDatabase.build(
            goal: goal, partition: partition,
            progress: { group in
                current = group + 1
                StandardError.write("pdb: group \(current) of \(groups)\n")
            },
            level: { level, states in
                StandardError.write("pdb: group \(current) of \(groups), \(level) moves: \(states.grouped) states\n")
            })
        let seconds = Double(seconds: start.duration(to: clock.now))
        let url = file(goal: goal, partition: partition)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(database.serialized).write(to: url, options: .atomic)
            StandardError.write("pdb: built in \(seconds.milliseconds), \(database.byteCount.bytes), saved to \(url.path)\n")
            return (database, seconds, url)
        } catch {
            StandardError.write("pdb: built in \(seconds.milliseconds) but could not save to \(url.path): \(error.localizedDescription)\n")
            return (database, seconds, nil)
        }
    }
}

struct PatternDatabaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pdb",
        abstract: "Build the 15-puzzle pattern databases that idastar-pdb uses.",
        subcommands: [PatternDatabaseBuildCommand.self, PatternDatabaseListCommand.self]
    )
}

struct PatternDatabaseBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build and cache the additive pattern databases for a goal, reporting time and size.",
        discussion: """
            idastar-pdb builds them by itself on first use; building ahead keeps the first \
            solve (and each new worker machine) from waiting. The cache directory is \
            $GRIDLOCK_CACHE, else $XDG_CACHE_HOME/gridlock, else ~/.cache/gridlock.

            Solves map the cached files read-only, so every process on a machine shares one \
            copy. A build writes a new file and renames it into place; replace a cached file \
            only that way (copy it beside, then mv), never by writing over it: a process that \
            has it mapped would read the new bytes, or die (SIGBUS) if the file got shorter.

            Example:
              gridlock pdb build --goal blank-first   # (slow: about a minute)
            """
    )

    @Option(help: "The goal: blank-last or blank-first.")
    var goal: TileGoal = .blankLast

    @Option(help: "The partition of the 15 tiles: 6-6-3 (what idastar-pdb uses unless 7-8 is built), 7-8 (550 MiB; idastar-pdb uses it once built) or 5-5-5.")
    var partition: String = TilePatternDatabase.Partition.sixSixThree.rawValue

    func validate() throws {
        guard TilePatternDatabase.Partition(rawValue: partition) != nil else {
            throw ValidationError("--partition must be 6-6-3, 7-8 or 5-5-5")
        }
    }

    func run() throws {
        let (database, seconds, saved) = PatternDatabaseCache.build(goal: goal, partition: TilePatternDatabase.Partition(rawValue: partition)!)
        print("\(partition) \(goal.rawValue): built in \(seconds.milliseconds), \(database.byteCount.bytes) (\(database.byteCount.grouped) bytes)\(saved.map { ", \($0.path)" } ?? ", not saved")")
        if saved == nil { throw ExitCode(1) }
    }
}

struct PatternDatabaseListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Show the cached pattern databases, whether each can be read, and which idastar-pdb uses.",
        discussion: """
            The cache folder, then a line per goal and partition: its file's size and its state. "in use" is \
            what idastar-pdb reads for that goal (7-8 where it is built and readable, else \
            6-6-3); "refused" cannot be used, and the lines below the table say why (cut \
            short, damaged (its checksum), another goal's, an older build's, not a regular file); "not built" has no file, and "built on \
            first use" (or "refused, rebuilt on use") is the 6-6-3 a solve will build. Run it on each machine of a cluster to \
            see what its workers will solve with.

            Exit status: 0, whatever the cache holds.

            Example:
              gridlock pdb list
            """
    )

    func run() throws {
        print("cache: \(PatternDatabaseCache.directory.path)")
        var rows: [[String]] = []
        var refusals: [String] = []
        for goal in [TileGoal.blankLast, .blankFirst] {
            var inUse = false
            for partition in [TilePatternDatabase.Partition.sevenEight, .sixSixThree, .fiveFiveFive] {
                let path = PatternDatabaseCache.file(goal: goal, partition: partition).path
                let state: String
                if !FileManager.default.fileExists(atPath: path) {
                    state = partition == .sixSixThree && !inUse ? "built on first use" : "not built"
                    if partition == .sixSixThree { inUse = true }
                } else {
                    do {
                        _ = try PatternDatabaseCache.checkedTables(goal: goal, partition: partition, populate: false)
                        // The loader reads 7-8, else 6-6-3; it never reads 5-5-5.
                        state = !inUse && partition != .fiveFiveFive ? "in use" : "readable"
                        if partition != .fiveFiveFive { inUse = true }
                    } catch {
                        // A 6-6-3 file that cannot be read is built again, in memory, by a solve.
                        state = partition == .sixSixThree && !inUse ? "refused, rebuilt on use" : "refused"
                        if partition == .sixSixThree { inUse = true }
                        refusals.append("\(goal.rawValue) \(partition.rawValue): \(error)")
                    }
                }
                // The size of what the loader would read: through a symlink, and only of a file.
                var status = stat()
                let size = stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG ? Int(status.st_size).bytes : "-"
                rows.append([goal.rawValue, partition.rawValue, size, state])
            }
        }
        print(TextTable.aligned(header: ["goal", "partition", "size", "state"], rows: rows))
        for refusal in refusals { print("refused, \(refusal)") }
    }
}
