// The batch's timestamp, written by hand to keep ICU out of the batch process, against
// Foundation's ISO 8601 formatter.

import Foundation
import Testing
@testable import GridlockCluster
import GridlockWire

@Suite struct BatchRecordTimestampTests {
    @Test("the hand-written UTC timestamp is Foundation's ISO 8601, second for second")
    func timestampMatchesFoundation() {
        let formatter = ISO8601DateFormatter()
        for seconds in [0.0, 951_782_400.5, 1_795_000_000, 4_102_444_799, Date().timeIntervalSince1970] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(BatchRecord.timestamp(date) == formatter.string(from: date), "\(seconds)")
        }
    }
}
