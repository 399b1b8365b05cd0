import ArgumentParser
import Foundation
import Synchronization

/// `recipes-bench load`: starts a real `recipes serve` process and sends it several large
/// request bodies at once, while probing `GET /` every few milliseconds; reports the server's
/// peak resident memory, how the large requests were answered and how long `GET /` took
/// meanwhile. It shows whether the body budget bounds what bodies and their parsed JSON
/// cost, and whether a few large requests can keep the server from answering small ones.
struct LoadBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Send concurrent large request bodies to a local `recipes serve`; report its peak memory and GET / latency.",
        discussion: """
            --shape keys sends `_all_docs` bodies of short keys (about 11 bytes each, far over \
            the 100,000-key cap: a hostile request). --shape docs sends `_bulk_docs` bodies of \
            up to 100,000 small documents (a legitimate push). Exits non-zero if the server died \
            or any large request got no reply.
            """)

    enum Shape: String, ExpressibleByArgument, CaseIterable {
        case keys, docs
    }

    @Option(help: "Large requests sent at once.")
    var requests = 8

    @Option(help: "Size of each large body in MB.")
    var megabytes = 60

    @Option(help: "What the large bodies hold: keys or docs.")
    var shape: Shape = .keys

    @Option(help: "The server's --max-total-body-mb (default: the server's own default).")
    var budgetMegabytes: Int?

    @Option(help: "Milliseconds between two GET / probes.")
    var probeInterval = 20

    @Option(help: "Path of the `recipes` executable (default: next to this program).")
    var server: String?

    @Flag(help: "Print a JSON object with the figures as the last line.")
    var json = false

    func validate() throws {
        guard requests > 0, megabytes > 0, probeInterval > 0 else {
            throw ValidationError("--requests, --megabytes and --probe-interval must be positive.")
        }
    }

    /// The figures of one run.
    struct Figures: Codable {
        var requests: Int
        var megabytesEach: Int
        var shape: String
        var statuses: [String: Int]
        var seconds: Double
        var serverBaselineMB: Double
        var serverPeakMB: Double
        var probes: Int
        var probeFailures: Int
        var rootMedianMs: Double
        var rootP95Ms: Double
        var rootMaxMs: Double
        var serverAlive: Bool
    }

    func run() async throws {
        let executable = try RecipesExecutable.path(server, option: "--server")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-load-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let fixture = FuzzFixture(user: "load", password: "load-\(UInt32.random(in: 0...UInt32.max))",
                                  databases: ["load"], documents: [], attachmentName: "")
        let passwordFile = work.appendingPathComponent("admin.pw")
        _ = FileManager.default.createFile(atPath: passwordFile.path, contents: Data((fixture.password + "\n").utf8),
                                           attributes: [.posixPermissions: 0o600])
        var access = ["--user", fixture.user, "--password-file", passwordFile.path]
        if let budgetMegabytes { access += ["--max-total-body-mb", String(budgetMegabytes)] }
        let process = try ServerProcess(executable: executable, dataDirectory: work.appendingPathComponent("server"),
                                        maxBodyMegabytes: megabytes + 1, access: access,
                                        errorLog: work.appendingPathComponent("server.log"))
        defer { process.terminate() }
        let client = RawHTTPClient(port: process.port)
        guard FuzzBenchmark.call(client, fixture, "PUT", "/load")?.0 == 201 else {
            throw ValidationError("could not create the database on the server")
        }
        let pid = process.process.processIdentifier
        let baseline = PeakMemory.megabytes("VmRSS:", of: String(pid)) ?? 0
        let request = Self.largeRequest(shape, megabytes: megabytes, fixture: fixture)
        log("server on port \(process.port), \(String(format: "%.0f", baseline)) MB resident; sending \(requests) × \(request.count / 1_000_000) MB (\(shape.rawValue))")

        let statuses = Mutex([String: Int]())
        let finished = Mutex(0)
        let start = ContinuousClock.now
        for _ in 0..<requests {
            Thread.detachNewThread {
                let exchange = client.exchange(request, deadline: 300, closeWriteSide: false)
                let status = Self.status(of: exchange.bytes).map(String.init) ?? (exchange.timedOut ? "timeout" : "no reply")
                statuses.withLock { $0[status, default: 0] += 1 }
                finished.withLock { $0 += 1 }
            }
        }
        var latencies: [Double] = []
        var failures = 0
        let probe = Array("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(process.port)\r\nConnection: close\r\n\r\n".utf8)
        while finished.withLock({ $0 }) < requests, process.process.isRunning {
            let sent = ContinuousClock.now
            let exchange = client.exchange(probe, deadline: 10, closeWriteSide: false)
            let milliseconds = RawHTTPClient.seconds(since: sent) * 1000
            if Self.status(of: exchange.bytes) == 200 { latencies.append(milliseconds) } else { failures += 1 }
            try await Task.sleep(for: .milliseconds(probeInterval))
        }
        let seconds = RawHTTPClient.seconds(since: start)
        latencies.sort()
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        let figures = Figures(
            requests: requests, megabytesEach: megabytes, shape: shape.rawValue, statuses: statuses.withLock { $0 },
            seconds: seconds, serverBaselineMB: baseline, serverPeakMB: PeakMemory.megabytes("VmHWM:", of: String(pid)) ?? 0,
            probes: latencies.count + failures, probeFailures: failures, rootMedianMs: percentile(0.5),
            rootP95Ms: percentile(0.95), rootMaxMs: latencies.last ?? 0, serverAlive: process.process.isRunning)
        print(String(format: "%d × %d MB %@ in %.1f s: replies %@; server peak %.0f MB (baseline %.0f MB); GET / %d probes, %d failed, median %.1f ms, p95 %.1f ms, max %.1f ms",
                     figures.requests, figures.megabytesEach, figures.shape, figures.seconds,
                     figures.statuses.sorted { $0.key < $1.key }.map { "\($0.key) × \($0.value)" }.joined(separator: ", "),
                     figures.serverPeakMB, figures.serverBaselineMB, figures.probes, figures.probeFailures,
                     figures.rootMedianMs, figures.rootP95Ms, figures.rootMaxMs))
        if json {
            try BenchmarkRecord.emit(benchmark: "load", encoding: figures)
        }
        let unanswered = figures.statuses.filter { Int($0.key) == nil }.values.reduce(0, +)
        if !figures.serverAlive || unanswered > 0 { throw ExitCode.failure }
    }

    /// One authenticated POST whose body is about `megabytes` MB of the given shape.
    static func largeRequest(_ shape: Shape, megabytes: Int, fixture: FuzzFixture) -> [UInt8] {
        let target = megabytes * 1_000_000
        var body: [UInt8] = []
        body.reserveCapacity(target + 1024)
        let path: String
        switch shape {
        case .keys:
            path = "/load/_all_docs"
            body += Array(#"{"keys":["#.utf8)
            var index = 0
            while body.count < target - 16 {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body += Array("\"k\(index)\"".utf8)
                index += 1
            }
            body += Array("]}".utf8)
        case .docs:
            path = "/load/_bulk_docs"
            body += Array(#"{"docs":["#.utf8)
            let perDocument = max(target / 100_000, 64)
            var index = 0
            while body.count < target - perDocument, index < 100_000 {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                let prefix = #"{"_id":"doc-\#(index)","type":"Recipe","name":"Load \#(index)","overview":""#
                let padding = String(repeating: "x", count: max(perDocument - prefix.count - 4, 1))
                body += Array((prefix + padding + "\"}").utf8)
                index += 1
            }
            body += Array("]}".utf8)
        }
        var request = FuzzRequest(method: "POST", target: Array(path.utf8), endpoint: path)
        request.headers.append(("Authorization", Array("Basic \(Data("\(fixture.user):\(fixture.password)".utf8).base64EncodedString())".utf8)))
        request.headers.append(("Content-Type", Array("application/json".utf8)))
        request.body = body
        return request.bytes()
    }

    /// The status code of a reply's first line, if the bytes hold one.
    static func status(of reply: [UInt8]) -> Int? {
        guard reply.count >= 12, reply.starts(with: Array("HTTP/1.1 ".utf8)) else { return nil }
        return Int(String(decoding: reply[9..<12], as: UTF8.self))
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
