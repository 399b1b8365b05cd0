import InteropSupport
import CouchServer
import DocumentStore
import Foundation
import Logging
import Testing
import DocumentFormat

/// Runs the steps of the CouchServer catalog's article "Serving a Database"
/// (`Sources/CouchServer/Documentation.docc/ServingADatabase.md`), so its code keeps compiling
/// and doing what the article says. Change both together.
@Suite("Documentation: serving a database")
struct GettingStartedArticleTests {
    @Test func serveCreateWriteReadStop() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("couchserver-article-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        // Step 1: configure and start.
        let configuration = CouchServerConfiguration(
            dataDirectory: folder,
            host: "127.0.0.1",
            port: 0,
            credentials: ServerCredentials(user: "admin", password: "s3cret"),
            anonymousAccess: .reads)
        var logger = Logger(label: "kitchen-server")
        logger.logLevel = .warning
        let server = CouchServer(configuration: configuration, logger: logger)
        let port = try await server.start()
        #expect(server.port == port && port > 0)

        // Step 2: talk to it over HTTP.
        let client = HTTPTestClient(port: port)
        let admin = HTTPTestClient.basic("admin", "s3cret")
        #expect(try await client.send("GET", "/").status == 200)
        #expect(try await client.send("PUT", "/kitchen").status == 401)
        #expect(try await client.send("PUT", "/kitchen", headers: admin).status == 201)
        #expect(try await client.send("PUT", "/kitchen/soup", json: ["name": "Tomato Soup"], headers: admin).status == 201)
        let read = try await client.send("GET", "/kitchen/soup")
        #expect(read.status == 200)
        #expect(try read.json().objectValue?["name"] == "Tomato Soup")

        // Step 3: stop.
        await server.stop()
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(files.contains { $0.hasPrefix("kitchen") })
    }
}
