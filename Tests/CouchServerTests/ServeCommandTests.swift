import InteropSupport
import DocumentStore
import Foundation
import Testing
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

    /// Reads the first stdout line of `process` (blocking reads on a detached task).
    static func firstLine(of handle: FileHandle) async throws -> String {
        try await Task.detached {
            var collected = Data()
            while !collected.contains(UInt8(ascii: "\n")) {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                collected.append(chunk)
            }
            guard let line = String(data: collected, encoding: .utf8)?.split(separator: "\n").first else {
                throw ServeTestError(description: "recipes serve printed nothing")
            }
            return String(line)
        }.value
    }

    @Test("recipes serve --port 0 prints its address, serves CouchDB's API, never prints the password, and stops on SIGTERM")
    func serveEndToEnd() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("recipes-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let passwordFile = directory.appendingPathComponent("password")
        try "s3cret-value\n".write(to: passwordFile, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = [
            "serve", "--port", "0", "--data-dir", directory.appendingPathComponent("data").path,
            "--user", "admin", "--password-file", passwordFile.path,
        ]
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let line = try await Self.firstLine(of: stdout.fileHandleForReading)
        #expect(line.hasPrefix("listening on http://127.0.0.1:"))
        let port = try #require(Int(line.split(separator: ":").last ?? ""))
        #expect(port > 0)
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

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let output = stdout.fileHandleForReading.readDataToEndOfFile() + stderr.fileHandleForReading.readDataToEndOfFile()
        #expect(!String(decoding: output, as: UTF8.self).contains("s3cret-value"))
    }

    @Test("recipes serve refuses contradictory options with a one-line reason and a non-zero exit")
    func refusesBadOptions() async throws {
        let process = Process()
        process.executableURL = try Self.executable()
        process.arguments = ["serve", "--port", "0", "--user", "admin"]
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = Pipe()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus != 0)
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(message.contains("--password"))
    }
}
