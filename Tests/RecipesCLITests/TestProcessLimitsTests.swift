import Foundation
import Testing
import TestSupport

/// The test process raises its own soft limit of open files to the hard limit before any test
/// runs (`Tests/CTestProcessLimits`), so the whole suite at once fits on a system that starts
/// processes with 1,024. Run `ulimit -Sn 1024; swift test` to see it hold there.
@Suite("The test process's limits")
struct TestProcessLimitsTests {
    @Test("the soft limit of open files is the hard limit (or 65,536 when that is unlimited)")
    func openFiles() throws {
        // RLIM_INFINITY is all bits set.
        var limit = rlimit()
        try #require(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let expected = limit.rlim_max == rlim_t.max ? 65536 : limit.rlim_max
        #expect(limit.rlim_cur == rlim_t.max || limit.rlim_cur >= expected, "soft \(limit.rlim_cur), hard \(limit.rlim_max)")
    }
}
