// A batch's tables folded from its results as the sink stores them, so `gridlock batch` prints
// them the moment the last job is stored instead of reading every row back: reading 1,000,000
// rows back for the tables, the tally and the first problems took 2 s of a 14 s batch.
//
// It gives what reading the rows back gives, or nothing: it counts only rows the store wrote
// (a duplicate is not folded twice), orders solvers by their first job as the job-ordered
// read does, and keeps the smallest job numbers that did not run. A batch that had rows before
// it started (a resume) or that replaced one cannot be told from its new results alone: then
// `finished` gives nil and the tables come from the database as before. So does a fold whose
// row count is not the batch's job count (a forged result for a job outside the batch, or one
// replacing a stored row): it never prints tables the database would not.

import GridlockWire

public struct StreamedReport: Sendable {
    public let batch: String
    public private(set) var report = BatchReport()
    public private(set) var tally = BatchTally()
    /// Rows folded: one per stored job when the fold is whole.
    public private(set) var rows = 0
    /// The smallest job numbers that did not run (invalid or failed), at most `problemLimit`,
    /// in order: the ones the text table lists.
    public private(set) var problemJobs: [Int] = []
    public static let problemLimit = 50
    /// Each solver's first job: the job-ordered read meets solvers in this order.
    private var firstJob: [BatchReport.Variant: Int] = [:]
    private var lastWorker: (identity: WorkerIdentity, name: String)?

    /// `scores` says the batch's limit and how many solvers each kind's puzzles have
    /// (JobReader.scores), so a puzzle's scores are made once its last answer is stored.
    public init(batch: String, scores: SolverScores = SolverScores()) {
        self.batch = batch
        report.scores = scores
    }

    /// Folds the results whose rows `stored` says it wrote; results of other batches are not
    /// this report's.
    public mutating func add(_ results: [JobResult], stored: ResultStore.Stored) {
        for index in stored.written where results[index].batch == batch {
            add(results[index])
        }
    }

    mutating func add(_ result: JobResult) {
        // A worker's name is text made from its host and pid: made once per run of its results,
        // not for each of millions.
        if lastWorker?.identity != result.worker { lastWorker = (result.worker, result.worker.description) }
        let summary = StoredRow(result, workerName: lastWorker!.name, scored: report.scores.enabled)
        rows += 1
        report.add(summary)
        tally.add(status: result.status, wrong: summary.isWrong)
        let variant = BatchReport.Variant(kind: summary.kind, solver: summary.solver)
        firstJob[variant] = min(firstJob[variant] ?? .max, result.job)
        if result.status == .invalid || result.status == .failed { keepProblem(result.job) }
    }

    private mutating func keepProblem(_ job: Int) {
        guard problemJobs.count < Self.problemLimit || job < problemJobs.last! else { return }
        let index = problemJobs.firstIndex { $0 > job } ?? problemJobs.endIndex
        problemJobs.insert(job, at: index)
        if problemJobs.count > Self.problemLimit { problemJobs.removeLast() }
    }

    /// The tables, when the fold holds every row of the batch: `jobs` read, none stored before
    /// the run, none changed. Nil otherwise: read the database.
    public func finished(jobs: Int, storedBefore: Int, changed: Int) -> BatchReport? {
        guard storedBefore == 0, changed == 0, rows == jobs else { return nil }
        var ordered = report
        ordered.variants.sort { firstJob[$0, default: .max] < firstJob[$1, default: .max] }
        return ordered
    }
}
