import InteropSupport
import CouchServer
import Foundation
import Logging
import TestSupport

/// A CouchServer on an ephemeral port over a fresh temporary data directory, for one test.
struct TestServer: StoppableServer {
    static let user = "admin"
    static let password = "password"

    let server: CouchServer
    let directory: URL
    let client: HTTPTestClient

    /// Starts a server with the administrator's credentials and `anonymous` access for
    /// requests without them (the server's own default unless told); `configure` adjusts the
    /// configuration first.
    static func start(
        anonymous: AnonymousAccess = .none, _ configure: (inout CouchServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("couchserver-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = CouchServerConfiguration(
            dataDirectory: directory, host: "127.0.0.1", port: 0,
            credentials: ServerCredentials(user: user, password: password), anonymousAccess: anonymous)
        configure(&configuration)
        var logger = Logger(label: "couchserver-tests")
        logger.logLevel = .warning
        let server = CouchServer(configuration: configuration, logger: logger)
        let port = try await server.start()
        return TestServer(server: server, directory: directory, client: HTTPTestClient(port: port))
    }

    /// Basic-auth headers for the administrator.
    var auth: [String: String] { HTTPTestClient.basic(Self.user, Self.password) }

    /// Stops the server and removes its files.
    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
