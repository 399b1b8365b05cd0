import Foundation
import GRDB
import Testing
import TestSupport

/// `recipes list --watch` follows the file it opened: when the store's path is deleted,
/// replaced (a backup restored with `mv`) or truncated, it says so and exits 1, letting go
/// of the file, and commands run afterwards meet the store that is really at the path.
/// Real processes on real files; the waits are hang guards.
@Suite("recipes list --watch and its store file", .serialized)
struct ListWatchStoreFileTests {
    enum Mishap: String, CaseIterable, CustomTestStringConvertible {
        case deleted, mainFileDeleted, replaced, truncated
        var testDescription: String { rawValue }
    }

    @Test("the watch exits 1 naming what happened to its store", arguments: Mishap.allCases)
    func watchNoticesItsStoreFile(_ mishap: Mishap) async throws {
        let sandbox = try Sandbox("watch-file")
        let path = sandbox.path("watched.sqlite")
        let store = ["--store", path, "--no-samples"]
        #expect(try await sandbox.run(["add", "--name", "Apple Soup"] + store).status == 0)
        // A backup of another book, whole in its one file (its log folded in), as a copy taken
        // of a closed store is.
        let backup = sandbox.path("backup.sqlite")
        #expect(try await sandbox.run(["add", "--name", "Backup Marker"] + ["--store", backup, "--no-samples"]).status == 0)
        try await DatabaseQueue(path: backup).writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: backup + suffix) }

        let watcher = try await sandbox.start(["list", "--watch"] + store)
        #expect(await watcher.waitForOutput(containing: "Apple Soup") != nil, "watcher stderr: \(watcher.stderr)")
        let files = FileManager.default
        switch mishap {
        case .deleted:
            for suffix in ["", "-wal", "-shm"] { try? files.removeItem(atPath: path + suffix) }
        case .mainFileDeleted:
            try files.removeItem(atPath: path)
        case .replaced:
            #expect(rename(backup, path) == 0)
        case .truncated:
            #expect(truncate(path, 0) == 0)
        }
        #expect(await watcher.waitForExit(timeout: 60), "the watch did not notice its store was \(mishap)")
        let result = try await watcher.finish(timeout: 60)
        #expect(result.status == 1, "\(result)")
        let said: String = switch mishap {
        case .deleted, .mainFileDeleted: "was deleted while it was open"
        case .replaced: "was replaced by another file"
        case .truncated: "was truncated or overwritten"
        }
        #expect(result.stderr.contains("recipes: the store \(path) \(said)"), "\(result.stderr)")

        // What comes next meets the file that is at the path now, within the busy timeout.
        switch mishap {
        case .deleted, .mainFileDeleted:
            let added = try await sandbox.run(["add", "--name", "Fresh Start"] + store)
            #expect(added.status == 0, "\(added)")
        case .replaced:
            let added = try await sandbox.run(["add", "--name", "After Restore"] + store)
            #expect(added.status == 0, "\(added)")
            let names = try await sandbox.run(["list"] + store).stdout
            #expect(names.contains("Backup Marker") && names.contains("After Restore") && !names.contains("Apple Soup"), "\(names)")
        case .truncated:
            // The file is broken: a command says so in time rather than waiting on it.
            let started = Date()
            let added = try await sandbox.start(["add", "--name", "Into The Void"] + store).finish(timeout: 60)
            #expect(Date().timeIntervalSince(started) < 60, "\(added)")
        }
    }

    @Test("a live sync whose store is deleted stops, says so and exits 1")
    func liveSyncNoticesItsStoreFile() async throws {
        let sandbox = try Sandbox("live-file")
        let path = sandbox.path("synced.sqlite")
        let machine = ["--store", path, "--no-samples", "--remote", sandbox.path("remote.sqlite")]
        #expect(try await sandbox.run(["add", "--name", "Apple Soup"] + machine).status == 0)
        let live = try await LiveSyncTests.startLive(sandbox, machine)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        #expect(await live.waitForExit(timeout: 60), "the live sync did not notice its store was deleted")
        let result = try await live.finish(timeout: 60)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("recipes: the store \(path) was deleted while it was open"), "\(result.stderr)")
    }
}
