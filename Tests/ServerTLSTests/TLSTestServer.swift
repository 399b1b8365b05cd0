import CouchServer
import Foundation
import Logging
import ServerTLS
import TestSupport

/// An in-process `CouchServer` serving HTTPS on a free port of 127.0.0.1 with a certificate
/// from a test CA, over a fresh data directory.
struct TLSTestServer: StoppableServer {
    static let user = "admin"
    static let password = "tls-s3cret"

    let server: CouchServer
    let directory: URL
    let port: Int

    /// Starts a server presenting `files`.
    static func start(_ files: TLSFiles) async throws -> TLSTestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = CouchServerConfiguration(
            dataDirectory: directory, host: "127.0.0.1", port: 0,
            credentials: ServerCredentials(user: user, password: password))
        configuration.tlsCertificate = try ServerCertificate(files: files)
        var logger = Logger(label: "tls-tests")
        logger.logLevel = .critical
        let server = CouchServer(configuration: configuration, logger: logger)
        let port = try await server.start()
        return TLSTestServer(server: server, directory: directory, port: port)
    }

    /// `https://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String = "", host: String = "127.0.0.1", credentials: Bool = false) -> String {
        "https://\(credentials ? "\(Self.user):\(Self.password)@" : "")\(host):\(port)\(path)"
    }

    /// Basic-auth header of the administrator.
    static var authorization: (String, String) {
        ("Authorization", "Basic " + Data("\(user):\(password)".utf8).base64EncodedString())
    }

    func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
