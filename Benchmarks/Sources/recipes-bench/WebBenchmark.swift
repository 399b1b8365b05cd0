import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RecipesKit

/// `recipes-bench web`: `recipes web` on a generated book, as browsers use it. It times the
/// book's first page and a recipe page one request at a time against the anchor, the same
/// recipe fetched in this process as `recipes show` fetches it; then 8 clients at once for
/// the throughput and the 99th percentile; the weight of a page with its stylesheet and
/// script; how soon a recipe added by another process reaches an open page's event stream
/// and page; and what an idle open page costs the server.
struct WebBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Time `recipes web` on a generated book: page latency, throughput, page weight, live updates, idle cost.")

    @Option(help: "Recipes in the generated book (each with 8 ingredients; 8 recipe types).")
    var recipes = 20_000

    @Option(help: "Sequential requests of each page (and anchor runs); the median is reported.")
    var runs = 200

    @Option(help: "Concurrent clients for the throughput run.")
    var clients = 8

    @Option(help: "Seconds of the throughput run.")
    var seconds = 10.0

    @Option(help: "Changes made by another process for the live-update figure.")
    var changes = 7

    @Option(help: "Seconds the idle server is watched with an open page.")
    var idleSeconds = 10.0

    @Option(help: "Path of the `recipes` executable (default: next to this program).")
    var recipesExecutable: String?

    @Option(help: ArgumentHelp("Keep the generated set and store in this folder; a store already there is reused.", valueName: "dir"))
    var keep: String?

    @Flag(help: "Print one JSON object with every figure on the last line.")
    var json = false

    /// Every figure of a run.
    struct Report: Encodable {
        var recipes: Int
        var anchorShowMilliseconds: Double
        /// Medians of the server's own time (its `Server-Timing` header), the target's figure.
        var bookPageServerMilliseconds: Double
        var recipePageServerMilliseconds: Double
        var bookPageRatio: Double
        var recipePageRatio: Double
        /// Medians of the time a client waits, the HTTP exchange included.
        var bookPageMilliseconds: Double
        var recipePageMilliseconds: Double
        var clients: Int
        var pagesPerSecond: Double
        var p99Milliseconds: Double
        var pageBytes: Int
        var stylesheetBytes: Int
        var scriptBytes: Int
        var gridImages: Int
        var gridImagesAllThumbnails: Bool
        var liveEventMilliseconds: Double
        var livePageMilliseconds: Double
        var idleCPUPercent: Double
        var calibrationMilliseconds: [Double]
    }

    func run() async throws {
        guard recipes > 0, runs > 0, clients > 0, seconds > 0, changes > 0 else {
            throw ValidationError("--recipes, --runs, --clients, --seconds and --changes must be positive")
        }
        let executable = try RecipesExecutable.path(recipesExecutable, option: "--recipes-executable")
        let work = keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("recipes-web-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(at: work) } }
        let store = work.appendingPathComponent("book.sqlite").path
        if !FileManager.default.fileExists(atPath: store) {
            let setURL = work.appendingPathComponent("big.json")
            try ScaleSampleSet.write(recipes: recipes, to: setURL)
            let imported = try ChildProcess.run(executable, ["import", setURL.path, "--store", store])
            log(String(format: "imported %d recipes in %.1f s", recipes, imported.milliseconds / 1000))
        }
        let speedBefore = CLIBenchmark.calibration()
        let middle = String(format: "Scale Recipe %06d", recipes / 2)

        // The anchor: `recipes show`'s fetch of the recipe, in this process, each with a
        // context of its own as a fresh `show` has; timed interleaved with the pages below,
        // so that the machine's drift touches both alike.
        let opened = try RecipesStore(url: URL(fileURLWithPath: store))
        let recipeID = try opened.container.newBook().recipe(named: middle).documentID
        let anchorRun = { () throws -> Double in
            let start = ContinuousClock.now
            let book = RecipeBook(context: opened.container.newContext(name: "anchor"))
            _ = try book.details(of: try book.recipe(named: middle))
            return SyncBenchmark.seconds(since: start) * 1000
        }
        _ = try anchorRun()

        let server = try ServerProcess(executable: executable, arguments: ["web", "--store", store, "--no-samples", "--port", "0"])
        defer { server.terminate() }
        let base = "http://127.0.0.1:\(server.port)"
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await measure(client: client, base: base, server: server, executable: executable, store: store,
                              recipeID: recipeID, anchorRun: anchorRun, speedBefore: speedBefore)
            try await client.shutdown()
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Everything measured against the running server.
    private func measure(client: HTTPClient, base: String, server: ServerProcess, executable: String, store: String,
                         recipeID: String, anchorRun: () throws -> Double, speedBefore: Double) async throws {

        // One request at a time.
        let recipePath = "/recipes/\(recipeID)"
        // A browser keeps the session cookie the first page sets, and sends it with each request.
        let first = try await client.execute(HTTPClientRequest(url: base + "/"), timeout: .seconds(30))
        _ = try await first.body.collect(upTo: 16 << 20)
        let cookie = first.headers.first(name: "Set-Cookie").flatMap { $0.split(separator: ";").first.map(String.init) }
        var bookTimes: [Double] = [], bookServer: [Double] = []
        var recipeTimes: [Double] = [], recipeServer: [Double] = []
        var anchorTimes: [Double] = []
        for _ in 0..<runs {
            anchorTimes.append(try anchorRun())
            let book = try await Self.timedExchange(client, base + "/", cookie: cookie)
            bookTimes.append(book.client)
            bookServer.append(book.server)
            let recipe = try await Self.timedExchange(client, base + recipePath, cookie: cookie)
            recipeTimes.append(recipe.client)
            recipeServer.append(recipe.server)
        }
        let anchor = anchorTimes.median
        log(String(format: "anchor (in-process show fetch): %.2f ms", anchor))
        log(String(format: "book page: server %.2f ms (%.2f×), client %.2f ms; recipe page: server %.2f ms (%.2f×), client %.2f ms",
                   bookServer.median, bookServer.median / anchor, bookTimes.median,
                   recipeServer.median, recipeServer.median / anchor, recipeTimes.median))

        // Clients at once, alternating the two pages.
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        let started = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for index in 0..<clients {
                group.addTask {
                    var times: [Double] = []
                    var turn = index
                    while ContinuousClock.now < deadline {
                        times.append(try await Self.timedExchange(client, base + (turn % 2 == 0 ? "/" : recipePath), cookie: cookie).client)
                        turn += 1
                    }
                    return times
                }
            }
            var all: [Double] = []
            for try await times in group { all += times }
            return all
        }
        let elapsed = SyncBenchmark.seconds(since: started)
        let perSecond = Double(latencies.count) / elapsed
        let p99 = latencies.sorted()[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
        log(String(format: "%d clients: %.0f pages/s, p99 %.1f ms", clients, perSecond, p99))

        // A page's weight, and what its grid loads.
        let page = try await Self.get(client, base + "/")
        let html = String(decoding: page, as: UTF8.self)
        let assets = Self.matches(#"/assets/[a-z]+\.(css|js)\?v=[A-Za-z0-9_-]+"#, in: html)
        let stylesheet = try await Self.get(client, base + (assets.first { $0.contains(".css") } ?? "/assets/style.css"))
        let script = try await Self.get(client, base + (assets.first { $0.contains(".js") } ?? "/assets/app.js"))
        let images = Self.matches(#"<img src="[^"]+""#, in: html)
        let thumbnailsOnly = images.allSatisfy { $0.hasSuffix("/thumbnail\"") }
        log("page: \(page.count) B, stylesheet \(stylesheet.count) B, script \(script.count) B; \(images.count) grid images, thumbnails only: \(thumbnailsOnly)")

        // Live updates: an open page's event stream, and a recipe added by another process.
        let live = try await LiveProbe.open(client, base + "/events")
        var eventTimes: [Double] = []
        var pageTimes: [Double] = []
        for change in 0..<changes {
            let name = "Web Bench Live \(change) \(UUID().uuidString.prefix(8))"
            _ = try ChildProcess.run(executable, ["add", "--name", name, "--store", store, "--no-samples"])
            let added = ContinuousClock.now
            try await live.nextChange(timeout: .seconds(10))
            eventTimes.append(SyncBenchmark.seconds(since: added) * 1000)
            // The page the script then fetches shows the recipe.
            let query = "/?q=" + (name.split(separator: " ").last.map(String.init) ?? "")
            let refreshed = String(decoding: try await Self.get(client, base + query), as: UTF8.self)
            guard refreshed.contains(name) else { throw ValidationError("the page after the change does not show \(name)") }
            pageTimes.append(SyncBenchmark.seconds(since: added) * 1000)
        }
        log(String(format: "change by another process: event after %.0f ms, page after %.0f ms (medians)", eventTimes.median, pageTimes.median))

        // An idle open page: the server's CPU time while nothing changes.
        let cpuBefore = try Self.cpuSeconds(of: server.pid)
        let idleStart = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(Int(idleSeconds * 1000)))
        let idlePercent = (try Self.cpuSeconds(of: server.pid) - cpuBefore) / SyncBenchmark.seconds(since: idleStart) * 100
        await live.close()
        log(String(format: "idle with an open page: %.2f %% of one core", idlePercent))
        let speedAfter = CLIBenchmark.calibration()

        let report = Report(
            recipes: recipes, anchorShowMilliseconds: anchor, bookPageServerMilliseconds: bookServer.median,
            recipePageServerMilliseconds: recipeServer.median, bookPageRatio: bookServer.median / anchor,
            recipePageRatio: recipeServer.median / anchor, bookPageMilliseconds: bookTimes.median,
            recipePageMilliseconds: recipeTimes.median, clients: clients, pagesPerSecond: perSecond, p99Milliseconds: p99,
            pageBytes: page.count, stylesheetBytes: stylesheet.count, scriptBytes: script.count, gridImages: images.count,
            gridImagesAllThumbnails: thumbnailsOnly, liveEventMilliseconds: eventTimes.median, livePageMilliseconds: pageTimes.median,
            idleCPUPercent: idlePercent, calibrationMilliseconds: [speedBefore, speedAfter])
        print("recipes-bench web: \(recipes) recipes")
        print(String(format: "anchor: recipes show's fetch in process            %8.2f ms", anchor))
        print(String(format: "book page (first), server time                    %8.2f ms  %5.2f× the anchor (client waits %.2f ms)",
                     report.bookPageServerMilliseconds, report.bookPageRatio, report.bookPageMilliseconds))
        print(String(format: "recipe page, server time                          %8.2f ms  %5.2f× the anchor (client waits %.2f ms)",
                     report.recipePageServerMilliseconds, report.recipePageRatio, report.recipePageMilliseconds))
        print(String(format: "%d clients at once                                %8.0f pages/s, p99 %.1f ms", clients, perSecond, p99))
        print("page + stylesheet + script                        \(page.count + stylesheet.count + script.count) B (\(page.count) + \(stylesheet.count) + \(script.count)); grid: \(images.count) images, thumbnails only: \(thumbnailsOnly)")
        print(String(format: "change by another process on an open page        event %.0f ms, page %.0f ms (medians of %d)", eventTimes.median, pageTimes.median, changes))
        print(String(format: "idle server with an open page                     %.2f %% of one core", idlePercent))
        print(String(format: "machine speed (a fixed CPU task, lower is faster): %.0f ms before, %.0f ms after", speedBefore, speedAfter))
        if json { try BenchmarkRecord.emit(benchmark: "web", encoding: report) }
    }

    /// The body of a GET of `url`.
    static func get(_ client: HTTPClient, _ url: String) async throws -> Data {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        guard response.status == .ok else { throw ValidationError("GET \(url): \(response.status)") }
        return Data(try await response.body.collect(upTo: 16 << 20).readableBytesView)
    }

    /// Milliseconds a GET of `url` takes for the client (its body read) and for the server
    /// (its `Server-Timing: app;dur=…`).
    static func timedExchange(_ client: HTTPClient, _ url: String, cookie: String?) async throws -> (client: Double, server: Double) {
        var request = HTTPClientRequest(url: url)
        if let cookie { request.headers.add(name: "Cookie", value: cookie) }
        let start = ContinuousClock.now
        let response = try await client.execute(request, timeout: .seconds(30))
        guard response.status == .ok else { throw ValidationError("GET \(url): \(response.status)") }
        _ = try await response.body.collect(upTo: 16 << 20)
        let clientTime = SyncBenchmark.seconds(since: start) * 1000
        guard let timing = response.headers.first(name: "Server-Timing"),
              let server = timing.split(separator: "=").last.flatMap({ Double($0) }) else {
            throw ValidationError("GET \(url): no Server-Timing header")
        }
        return (clientTime, server)
    }

    /// Every match of `pattern` in `text`.
    static func matches(_ pattern: String, in text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let range = rest.range(of: pattern, options: .regularExpression) {
            found.append(String(rest[range]))
            rest = rest[range.upperBound...]
        }
        return found
    }

    /// The user and system CPU seconds process `pid` has used (`/proc/PID/stat`).
    static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: ")") else { throw ValidationError("unreadable /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw ValidationError("unreadable /proc/\(pid)/stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    func log(_ text: String) {
        FileHandle.standardError.write(Data("recipes-bench web: \(text)\n".utf8))
    }
}

/// An open page's event stream (`GET /events`), read as a browser's `EventSource` reads it.
final class LiveProbe {
    private var events: AsyncStream<String>.Iterator
    private let reader: Task<Void, Never>

    private init(events: AsyncStream<String>, reader: Task<Void, Never>) {
        self.events = events.makeAsyncIterator()
        self.reader = reader
    }

    /// Opens the stream at `url` and waits for its first event (the current version).
    static func open(_ client: HTTPClient, _ url: String) async throws -> LiveProbe {
        let response = try await client.execute(HTTPClientRequest(url: url), timeout: .hours(1))
        guard response.status == .ok else { throw ValidationError("GET \(url): \(response.status)") }
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let reader = Task {
            var pending = ""
            do {
                for try await chunk in response.body {
                    pending += String(buffer: chunk)
                    while let end = pending.range(of: "\n\n") {
                        let event = String(pending[..<end.lowerBound])
                        pending = String(pending[end.upperBound...])
                        if event.contains("event: change") { continuation.yield(event) }
                    }
                }
            } catch {}
            continuation.finish()
        }
        let probe = LiveProbe(events: stream, reader: reader)
        try await probe.nextChange(timeout: .seconds(10))
        return probe
    }

    /// Waits for the next `change` event.
    func nextChange(timeout: Duration) async throws {
        let reader = self.reader
        let timer = Task { try await Task.sleep(for: timeout); reader.cancel() }
        defer { timer.cancel() }
        guard await events.next() != nil else { throw ValidationError("the event stream ended or stayed silent for \(timeout)") }
    }

    /// Closes the stream.
    func close() async {
        reader.cancel()
    }
}
