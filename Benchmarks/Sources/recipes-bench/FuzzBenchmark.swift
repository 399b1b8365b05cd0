import ArgumentParser
import DocumentStore
import Foundation
import DocumentFormat

/// `recipes-bench fuzz`: starts a real `recipes serve` process with an administrator, fills
/// it with a couple of databases and documents, then sends generated hostile requests over
/// real sockets and checks that every reply is CouchDB-shaped and the server stays up.
struct FuzzBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Send hostile HTTP requests to a local `recipes serve` process and check every reply is CouchDB-shaped.",
        discussion: "Exits non-zero if the server died or stopped answering, or if any reply was malformed.")

    @Option(help: "Hostile requests to send.")
    var requests = 10_000

    @Option(help: "Seed of the request generator (default: random, printed so a run can be replayed).")
    var seed: UInt64?

    @Option(help: "Check that GET / still answers after every this many requests.")
    var checkEvery = 100

    @Option(help: "Seconds to wait for a reply before calling it missing.")
    var deadline = 10.0

    @Option(help: "Seconds a longpoll, continuous or eventsource feed may stay open before it is judged.")
    var feedDeadline = 1.0

    @Option(help: "Path of the `recipes` executable (default: next to this program).")
    var server: String?

    @Flag(help: "Print a JSON object with the figures as the last line.")
    var json = false

    func validate() throws {
        guard requests > 0 else { throw ValidationError("--requests must be at least 1.") }
        guard checkEvery > 0 else { throw ValidationError("--check-every must be at least 1.") }
        guard deadline > 0, feedDeadline > 0 else { throw ValidationError("deadlines must be positive.") }
    }

    func run() async throws {
        let executable = try RecipesExecutable.path(server, option: "--server")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let user = "fuzz"
        let password = "fuzz-\(UInt32.random(in: 0...UInt32.max))"
        let passwordFile = work.appendingPathComponent("admin.pw")
        _ = FileManager.default.createFile(atPath: passwordFile.path, contents: Data((password + "\n").utf8),
                                       attributes: [.posixPermissions: 0o600])
        let errorLog = work.appendingPathComponent("server.log")
        let process = try ServerProcess(executable: executable, dataDirectory: work.appendingPathComponent("server"),
                                        maxBodyMegabytes: 8, access: ["--user", user, "--password-file", passwordFile.path],
                                        errorLog: errorLog)
        defer { process.terminate() }
        let client = RawHTTPClient(port: process.port)
        let fixture = try Self.makeFixture(client: client, user: user, password: password)
        let seed = self.seed ?? UInt64.random(in: 0...UInt64.max)
        log("server: \(executable) on port \(process.port); \(fixture.databases.count) databases, \(fixture.documents.count) documents each; seed \(seed)")

        var generator = HostileRequestGenerator(seed: seed, fixture: fixture)
        var tally = FuzzTally(seed: seed)
        let start = ContinuousClock.now
        for index in 0..<requests {
            let request = generator.next()
            let exchange = client.exchange(request.bytes(), deadline: request.mayHoldOpen ? feedDeadline : deadline,
                                           closeWriteSide: request.hostileFraming)
            if !tally.record(CouchReplyCheck.verdict(for: request, exchange), for: request) {
                guard process.process.isRunning else { break }
                tally.addMalformed("\(request.summary()) → connection \(exchange.reset ? "reset" : "refused") without a reply")
            }
            if (index + 1) % checkEvery == 0 || index + 1 == requests {
                tally.livenessChecks += 1
                if !Self.rootAnswers(client: client, fixture: fixture) {
                    tally.livenessFailures += 1
                    if !process.process.isRunning { break }
                }
            }
            if (index + 1) % 1000 == 0 { log("\(index + 1) requests, \(tally.malformed) malformed") }
        }
        tally.seconds = RawHTTPClient.seconds(since: start)
        tally.serverAlive = process.process.isRunning
        if !tally.serverAlive {
            tally.crashes = 1
            let reason = process.process.terminationReason == .uncaughtSignal ? "signal" : "exit status"
            log("the server died (\(reason) \(process.process.terminationStatus)) after \(tally.requests) requests; its last output:")
            let output = (try? String(contentsOf: errorLog, encoding: .utf8)) ?? ""
            log(output.split(separator: "\n").suffix(20).joined(separator: "\n"))
        }

        print(tally.summaryLine)
        for example in tally.malformedExamples { print("  malformed: \(example)") }
        for example in tally.serverErrorExamples { print("  5xx: \(example)") }
        if !tally.serverErrorsByEndpoint.isEmpty {
            print("  5xx by endpoint: " + tally.serverErrorsByEndpoint.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if json {
            try BenchmarkRecord.emit(benchmark: "fuzz", encoding: tally)
        }
        if tally.failed { throw ExitCode.failure }
    }

    /// `GET /` with credentials answers 200 with CouchDB's welcome object.
    static func rootAnswers(client: RawHTTPClient, fixture: FuzzFixture) -> Bool {
        guard let (status, body) = call(client, fixture, "GET", "/"), status == 200,
              case .object(let welcome)? = body else { return false }
        return welcome["couchdb"] != nil
    }

    /// Creates two databases, each with five documents, an attachment on the first one, a
    /// `_local` document and (if accepted) a design document, all through the server's own API.
    static func makeFixture(client: RawHTTPClient, user: String, password: String) throws -> FuzzFixture {
        var fixture = FuzzFixture(user: user, password: password, databases: ["fuzz-a", "fuzz-b"], documents: [],
                                  attachmentName: "note.txt")
        for database in fixture.databases {
            try expect(call(client, fixture, "PUT", "/\(database)"), 201, "PUT /\(database)")
            var documents: [(id: String, rev: String)] = []
            for index in 0..<5 {
                let id = "doc-\(index)"
                let body = #"{"name":"Fuzz \#(index)","n":\#(index),"tags":["a","b"],"nested":{"deep":[1,2.5,null]}}"#
                let reply = try expect(call(client, fixture, "PUT", "/\(database)/\(id)", body: Array(body.utf8)), 201, "PUT \(id)")
                documents.append((id, reply["rev"]?.stringValue ?? ""))
            }
            let attached = try expect(call(client, fixture, "PUT", "/\(database)/doc-0/\(fixture.attachmentName)?rev=\(documents[0].rev)",
                                           body: Array("hello, fuzz".utf8), contentType: "text/plain"), 201, "PUT attachment")
            documents[0].rev = attached["rev"]?.stringValue ?? documents[0].rev
            try expect(call(client, fixture, "PUT", "/\(database)/_local/x", body: Array(#"{"checkpoint":1}"#.utf8)), 201, "PUT _local/x")
            // A design document too, if the server takes this one (it is not needed to fuzz).
            _ = call(client, fixture, "PUT", "/\(database)/_design/x", body: Array(#"{"language":"query","views":{}}"#.utf8))
            fixture.documents = documents
        }
        return fixture
    }

    /// One well-formed, authenticated request; the status and the parsed JSON body.
    static func call(_ client: RawHTTPClient, _ fixture: FuzzFixture, _ method: String, _ path: String,
                     body: [UInt8] = [], contentType: String = "application/json") -> (Int, JSONValue?)? {
        var request = FuzzRequest(method: method, target: Array(path.utf8), endpoint: path)
        request.headers.append(("Authorization", Array("Basic \(Data("\(fixture.user):\(fixture.password)".utf8).base64EncodedString())".utf8)))
        if !body.isEmpty {
            request.headers.append(("Content-Type", Array(contentType.utf8)))
            request.body = body
        }
        let exchange = client.exchange(request.bytes(), deadline: 10, closeWriteSide: false)
        guard case .success(let reply) = CouchReplyCheck.parse(exchange.bytes, complete: !exchange.timedOut, head: false) else { return nil }
        return (reply.status, try? JSONValue.parse(Data(reply.body)))
    }

    /// The reply's JSON object, or an error saying which set-up step failed.
    @discardableResult
    static func expect(_ result: (Int, JSONValue?)?, _ status: Int, _ step: String) throws -> [String: JSONValue] {
        guard let (actual, body) = result, actual == status || (status == 201 && actual == 202) else {
            throw ValidationError("setting up the fuzz fixture: \(step) answered \(result.map { "\($0.0)" } ?? "nothing"), expected \(status)")
        }
        return body?.objectValue ?? [:]
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
