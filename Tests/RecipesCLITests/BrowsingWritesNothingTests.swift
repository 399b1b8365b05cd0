import Foundation
import GRDB
import Testing
import TestSupport

/// `list`, `show`, `types` and `status` open a ready store for reading only: they write
/// nothing to the store file or its write-ahead log, not even the transaction SQLite's
/// journal set-up used to add to an empty log. Real processes on a real file.
@Suite("browsing commands write nothing")
struct BrowsingWritesNothingTests {
    /// The store file's bytes and the size of its write-ahead log.
    static func state(of path: String) throws -> (file: Data, log: Int) {
        let file = try Data(contentsOf: URL(fileURLWithPath: path))
        let log = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return (file, log)
    }

    @Test("a seeded store whose log is empty is left byte for byte as it was")
    func browsingLeavesTheFileAlone() async throws {
        let sandbox = try Sandbox("browse-read-only")
        let path = sandbox.path("book.sqlite")
        let store = ["--store", path, "--no-samples"]
        #expect(try await sandbox.run(["add", "--name", "Apple Soup", "--type", "Soup"] + store).status == 0)
        // Fold the log into the file, as a store closed by its last writer is.
        try await DatabaseQueue(path: path).writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let before = try Self.state(of: path)
        #expect(before.log == 0)

        for command in [["list"], ["list", "--json"], ["show", "Apple Soup"], ["types"], ["status"], ["list", "--search", "apple"]] {
            let result = try await sandbox.run(command + store)
            #expect(result.status == 0, "\(command): \(result)")
            let after = try Self.state(of: path)
            #expect(after.file == before.file && after.log == 0, "`recipes \(command.joined(separator: " "))` wrote to the store")
        }
        #expect(try await sandbox.run(["show", "Apple Soup"] + store).stdout.contains("Apple Soup"))

        // A write still goes through, and browsing then sees it.
        #expect(try await sandbox.run(["add", "--name", "Bean Soup", "--type", "Soup"] + store).status == 0)
        #expect(try await sandbox.run(["list"] + store).stdout.contains("Bean Soup"))
    }

    @Test("a store that needs a write first (new, not yet seeded) is opened for writing and seeded as before")
    func aNewStoreIsStillSeeded() async throws {
        let sandbox = try Sandbox("browse-new")
        let path = sandbox.path("fresh.sqlite")
        let listed = try await sandbox.run(["list", "--store", path])
        #expect(listed.status == 0, "\(listed)")
        #expect(listed.stderr.contains("new store: added the sample recipes"), "\(listed)")
        #expect(try await sandbox.run(["types", "--store", path]).stdout.isEmpty == false)
    }
}
