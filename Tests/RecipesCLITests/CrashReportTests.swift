import Foundation
import Testing
import TestSupport

/// A crash of `recipes` prints a symbolicated backtrace, also when the program is built with
/// the Swift runtime linked in statically (the fast build the README gives), where the
/// runtime cannot find its backtracer on its own and `CStaticBacktrace` names it.
///
/// The crash is a SIGSEGV sent to a running `list --watch`: the runtime's crash handler
/// reports it the same way as a bad pointer. A signal sent by another process does not fault
/// again when the handler returns, so the program is then killed by the test.
///
/// `swift test` runs the debug build beside the tests. CI also builds a static `recipes` and
/// runs this suite against it with `RECIPES_TEST_EXECUTABLE` naming it; that run requires the
/// program to really be static.
@Suite("crash reports")
struct CrashReportTests {
    @Test("a crash prints a backtrace with the program's function names")
    func crashPrintsSymbolicatedBacktrace() async throws {
        let sandbox = try Sandbox("crash-report")
        let named = ProcessInfo.processInfo.environment["RECIPES_TEST_EXECUTABLE"].map { URL(fileURLWithPath: $0) }
        // The program chooses its backtracer itself; the developer's setting must not do it.
        var environment = sandbox.environment
        environment["SWIFT_BACKTRACE"] = nil
        let watcher = try await RunningProcess.start(try named ?? CLIBinary.url(), arguments: ["list", "--watch", "--store", sandbox.path("book.sqlite")],
                                                     environment: environment)
        defer { watcher.signal(SIGKILL) }
        #expect(await watcher.waitForOutput(containing: "Apple Crumble") != nil, "stderr: \(watcher.stderr)")

        let pid = watcher.child.processIdentifier
        // Read to the end: /proc reports its files as empty, so a read by size gets nothing.
        let mapsFile = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
        let maps = String(decoding: try mapsFile.readToEnd() ?? Data(), as: UTF8.self)
        try mapsFile.close()
        #expect(maps.contains("/recipes"), "not the program's memory map: \(maps.prefix(500))")
        let runtimeIsShared = maps.contains("libswiftCore.so")
        if named != nil { #expect(!runtimeIsShared, "RECIPES_TEST_EXECUTABLE should name a statically linked recipes") }

        #expect(kill(pid, SIGSEGV) == 0)
        // The report's last line: the backtracer, a child of the program holding its files,
        // has finished. Killing the program before then can leave the backtracer waiting on
        // it, holding the descriptor that tells Foundation the program ended.
        let reported = await watcher.waitUntil(timeout: 120) {
            watcher.stderr.contains("Backtrace took") || !watcher.isRunning
        }
        let report = watcher.stderr
        #expect(reported, "no crash report within 120 s; stderr so far: \(report)")
        #expect(report.contains("Program crashed"), "stderr: \(report)")
        // A symbolicated frame: an address, then a function name and offset, then the image.
        let frame = /0x[0-9a-f]+ [^\n]+ \+ [0-9]+ in [^\n]+/
        #expect(report.contains(frame), "no symbolicated frame in: \(report)")
        if !runtimeIsShared {
            #expect(report.contains(/\ in recipes\b/), "no frame of the static program itself in: \(report)")
        }
    }
}
