import InteropSupport
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// End to end: the real `recipes serve` executable, started on port 0, talked to over HTTP.
@Suite("recipes serve")
struct ServeCommandTests {
    /// The `recipes` executable `swift test` built next to the test bundle.
    static func executable() throws -> URL {
        var candidates = [URL]()
        if let bundleDirectory = Bundle.main.executableURL?.deletingLastPathComponent() {
            candidates.append(bundleDirectory.appendingPathComponent("recipes"))
        }
        candidates.append(Bundle(for: Marker.self).bundleURL.deletingLastPathComponent().appendingPathComponent("recipes"))
        candidates.append(Recording.packageRoot.appendingPathComponent(".build/debug/recipes"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw ServeTestError(description: "no built `recipes` executable in \(candidates.map(\.path)); run `swift build` first")
        }
        return found
    }

    final class Marker {}

    struct ServeTestError: Error, CustomStringConvertible { var description: String }

    /// The port `recipes serve` printed in its first line (`listening on http://127.0.0.1:PORT`).
    static func port(of process: RunningProcess) async throws -> Int {
        guard let out = await process.waitForOutput(containing: "\n", timeout: 120),
              let line = out.split(separator: "\n").first, line.hasPrefix("listening on http://127.0.0.1:"),
              let port = Int(line.split(separator: ":").last ?? ""), port > 0 else {
            throw ServeTestError(description: "recipes serve did not print `listening on http://127.0.0.1:PORT`; stdout: \(process.stdout), stderr: \(process.stderr)")
        }
        return port
    }

    @Test("recipes serve --port 0 prints its address, serves CouchDB's API, never prints the password, and stops on SIGTERM")
    func serveEndToEnd() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwordFile = directory.appendingPathComponent("password")
        try "s3cret-value\n".write(to: passwordFile, atomically: true, encoding: .utf8)

        let process = try await RunningProcess.start(try Self.executable(), arguments: [
            "serve", "--port", "0", "--data-dir", directory.appendingPathComponent("data").path,
            "--user", "admin", "--password-file", passwordFile.path,
        ])
        let port = try await Self.port(of: process)
        let client = HTTPTestClient(port: port)

        #expect(try await client.send("GET", "/").json().objectValue?["couchdb"] == "Welcome")
        #expect(try await client.send("PUT", "/recipes").status == 401)
        let auth = HTTPTestClient.basic("admin", "s3cret-value")
        #expect(try await client.send("PUT", "/recipes", headers: auth).status == 201)
        #expect(try await client.send("PUT", "/recipes/cake", json: ["name": "Cake"], headers: auth).status == 201)
        #expect(try await client.send("GET", "/recipes/cake").status == 401)
        let doc = try await client.send("GET", "/recipes/cake", headers: auth).json()
        #expect(doc.objectValue?["name"] == "Cake")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("data/recipes.couchdb").path))

        #expect(await process.stop() == .exited(0))
        #expect(!(process.stdout + process.stderr).contains("s3cret-value"))
    }

    @Test("recipes serve refuses contradictory options with a one-line reason and a non-zero exit")
    func refusesBadOptions() async throws {
        let result = try await RunningProcess.start(try Self.executable(), arguments: ["serve", "--port", "0", "--user", "admin"]).finish()
        #expect(result.status != 0)
        #expect(result.stderr.contains("--password"))
    }
}
