// A solved, right stored job, for tests that only care about its number and fingerprint. The
// library has no such default: a caller that forgot the status would report success.

import GridlockWire

extension StoredJob {
    init(job: Int, fingerprint: JobFingerprint) {
        self.init(job: job, fingerprint: fingerprint, status: .solved, wrong: false)
    }
}
