// A role that many peers connect to holds a descriptor for each: a coordinator or a sink with
// 1,000 workers needs more than the 1,024 that Debian's default soft limit allows, and libzmq
// then refuses connections with no word to the operator. The hard limit is the operator's real
// bound, so roles raise the soft one to it at start.

import Foundation

public enum FileDescriptorLimit {
    /// Raises this process's soft limit on open files to its hard limit; returns the soft limit
    /// now in force (nil if it cannot be read).
    @discardableResult
    public static func raiseToHard() -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > UInt64(Int.max) ? Int.max : Int(limit.rlim_cur)
    }
}
