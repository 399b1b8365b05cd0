import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A sandbox for running the real `recipes` executable: its own temporary HOME, XDG data
/// and config folders, so no test touches the user's files or another test's store.
final class Sandbox: @unchecked Sendable {
    let root: URL

    init(_ label: String = "recipes-cli") throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        for folder in ["home", "data", "config"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// A path inside the sandbox.
    func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The environment every run gets: sandboxed HOME and XDG folders, nothing from the
    /// developer's RECIPES_* variables.
    var environment: [String: String] {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("RECIPES_") && !$0.key.hasPrefix("XDG_") }
        env["HOME"] = path("home")
        env["XDG_DATA_HOME"] = path("data")
        env["XDG_CONFIG_HOME"] = path("config")
        return env
    }

    /// Runs `recipes` with `arguments` and waits for it.
    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> RunResult {
        let process = try await start(arguments, environment: extra)
        return try await process.finish()
    }

    /// Starts `recipes` without waiting.
    func start(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> RunningProcess {
        try await RunningProcess.start(try CLIBinary.url(), arguments: arguments, environment: environment.merging(extra) { $1 })
    }

    /// Writes a file in the sandbox and returns its path.
    @discardableResult
    func write(_ relative: String, _ data: Data) throws -> String {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url.path
    }
}

/// `recipes serve` on a free port of 127.0.0.1 with an administrator, for sync tests without
/// any CouchDB. Every request needs the administrator (the server's default), so the sync
/// commands get URLs with the credentials in them, as a user would give them.
final class ServedDatabase: Sendable, StoppableServer {
    static let user = "admin"
    static let password = "served-s3cret"

    let server: RunningProcess
    let baseURL: String

    /// Starts a server on `port` (0: a free one) over the sandbox's `server` folder, so a
    /// server started again on the port of one that died serves the same databases.
    init(in sandbox: Sandbox, port: Int = 0, arguments: [String] = []) async throws {
        let passwordFile = try sandbox.write("serve-password", Data("\(Self.password)\n".utf8))
        server = try await sandbox.start([
            "serve", "--data-dir", sandbox.path("server"), "--port", String(port), "--user", Self.user, "--password-file", passwordFile,
        ] + arguments)
        guard let out = await server.waitForOutput(containing: "listening on ") else {
            throw ServeError(message: "recipes serve did not start: \(server.stderr)")
        }
        let line = out.split(separator: "\n").first { $0.contains("listening on ") } ?? ""
        baseURL = String(line.split(separator: " ").last ?? "")
    }

    /// Stops the server and waits for it to exit (`withServer` calls it at the end of its
    /// scope; dropping the value stops it without waiting).
    func stop() async { await server.stop() }

    /// The port the server listens on.
    var port: Int { URL(string: baseURL)?.port ?? 0 }

    /// The URL of database `name`, with the administrator's credentials in it.
    func url(_ name: String = "recipes") -> String {
        baseURL.replacingOccurrences(of: "http://", with: "http://\(Self.user):\(Self.password)@") + "/\(name)"
    }

    /// The `Authorization` header value of the administrator.
    static var authorization: String { "Basic " + Data("\(user):\(password)".utf8).base64EncodedString() }

    /// A request for `path` of the server, as the administrator.
    func request(_ path: String) -> URLRequest {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.setValue(Self.authorization, forHTTPHeaderField: "Authorization")
        return request
    }

    /// GET a path of the server and decode the JSON reply.
    func get(_ path: String) async throws -> [String: Any] {
        let (data, _) = try await URLSession.shared.data(for: request(path))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ServeError(message: "not a JSON object: \(String(decoding: data, as: UTF8.self))")
        }
        return object
    }

    struct ServeError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// Finds the `recipes` executable that `swift build`/`swift test` built next to the tests.
enum CLIBinary {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func url() throws -> URL {
        var candidates: [URL] = []
        if let executable = Bundle.main.executableURL { candidates.append(executable.deletingLastPathComponent()) }
        candidates.append(Bundle.main.bundleURL)
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles { candidates.append(bundle.bundleURL.deletingLastPathComponent()) }
        candidates.append(packageRoot.appendingPathComponent(".build/debug"))
        for folder in candidates {
            let binary = folder.appendingPathComponent("recipes")
            if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        }
        throw ServedDatabase.ServeError(message: "the recipes executable was not found next to the tests; run `swift build --product recipes` first")
    }
}

/// The test fixtures kept in `Tests/Fixtures` (copied before use, never opened in place).
enum TestFixtures {
    static let appleRecipesStore = CLIBinary.packageRoot
        .appendingPathComponent("Tests/Fixtures/apple-recipes/Recipes.sqlite").standardizedFileURL

    /// A whole 2 × 2 PNG: `add --image` decodes a photo before taking it.
    static let pngBytes = Data([
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x02,
        0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0xFD, 0xD4, 0x9A, 0x73, 0x00, 0x00, 0x00, 0x10, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0x38, 0x11, 0xA0, 0x01, 0x44, 0x0C, 0x10, 0x0A, 0x00, 0x25, 0x8E, 0x05, 0x01, 0xA9, 0x33, 0x71,
        0xC8, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ])
}
