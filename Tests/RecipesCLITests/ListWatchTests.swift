import Foundation
import Testing
import TestSupport

@Suite("recipes list --watch", .serialized)
struct ListWatchTests {
    /// The lists a non-terminal watcher printed, split at its `---` lines.
    static func lists(_ stdout: String) -> [String] {
        stdout.components(separatedBy: "\n---\n").map { $0.trimmingCharacters(in: .newlines) }
    }

    @Test("another process's add, edit and delete are redrawn in order; SIGINT exits 130")
    func watchesOtherProcesses() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("watched.sqlite"), "--no-samples"]
        #expect(try await sandbox.run(["add", "--name", "Apple Soup", "--type", "Soup"] + store).status == 0)

        let watcher = try await sandbox.start(["list", "--watch"] + store)
        #expect(await watcher.waitForOutput(containing: "Apple Soup") != nil, "watcher stderr: \(watcher.stderr)")

        #expect(try await sandbox.run(["add", "--name", "Banana Bread", "--type", "Bread", "--prep-time", "1 hour"] + store).status == 0)
        #expect(await watcher.waitUntil(timeout: 180) { Self.lists(watcher.stdout).count >= 2 }, "stdout: \(watcher.stdout)")

        #expect(try await sandbox.run(["edit", "Banana Bread", "--prep-time", "45 minutes"] + store).status == 0)
        #expect(await watcher.waitUntil(timeout: 180) { Self.lists(watcher.stdout).count >= 3 }, "stdout: \(watcher.stdout)")

        // A write that changes nothing the list shows is not drawn: the next list is the delete.
        #expect(try await sandbox.run(["edit", "Apple Soup", "--instructions", "Simmer."] + store).status == 0)
        #expect(try await sandbox.run(["delete", "Apple Soup"] + store).status == 0)
        #expect(await watcher.waitUntil(timeout: 180) { Self.lists(watcher.stdout).count >= 4 }, "stdout: \(watcher.stdout)")

        watcher.signal(SIGINT)
        let result = try await watcher.finish(timeout: 30)
        #expect(result.status == 130, "\(result)")

        let lists = Self.lists(result.stdout)
        try #require(lists.count == 4, "\(result)")
        func names(_ list: String) -> [String] {
            list.split(separator: "\n").dropFirst().map { String($0.split(separator: " ", omittingEmptySubsequences: true).prefix(2).joined(separator: " ")) }
        }
        #expect(lists[0].hasPrefix("NAME"), "\(lists[0])")
        #expect(names(lists[0]) == ["Apple Soup"])
        #expect(names(lists[1]) == ["Apple Soup", "Banana Bread"])
        #expect(lists[1].contains("1 hour") && !lists[1].contains("45 minutes"))
        #expect(names(lists[2]) == ["Apple Soup", "Banana Bread"])
        #expect(lists[2].contains("45 minutes"))
        #expect(names(lists[3]) == ["Banana Bread"])
        // Each list is what `recipes list` prints for the store at that moment.
        let now = try await sandbox.run(["list"] + store)
        #expect(now.stdout.trimmingCharacters(in: .newlines) == lists[3])
    }

    @Test("--watch keeps the filters, is documented in --help, and refuses --json")
    func filtersAndUsage() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("filtered.sqlite"), "--no-samples"]
        #expect(try await sandbox.run(["add", "--name", "Leek Soup", "--type", "Soup"] + store).status == 0)
        let watcher = try await sandbox.start(["list", "--watch", "--type", "soup"] + store)
        #expect(await watcher.waitForOutput(containing: "Leek Soup") != nil, "watcher stderr: \(watcher.stderr)")
        // Another type: not drawn. Then a soup: drawn.
        #expect(try await sandbox.run(["add", "--name", "Rye Bread", "--type", "Bread"] + store).status == 0)
        #expect(try await sandbox.run(["add", "--name", "Miso Soup", "--type", "Soup"] + store).status == 0)
        #expect(await watcher.waitUntil(timeout: 180) { Self.lists(watcher.stdout).count >= 2 }, "stdout: \(watcher.stdout)")
        watcher.signal(SIGINT)
        let result = try await watcher.finish(timeout: 30)
        #expect(result.status == 130, "\(result)")
        let lists = Self.lists(result.stdout)
        #expect(lists.count == 2, "\(result)")
        #expect(!result.stdout.contains("Rye Bread"))
        #expect(lists.last?.contains("Miso Soup") == true)

        let help = try await sandbox.run(["list", "--help"])
        #expect(help.stdout.contains("--watch"), "\(help)")
        let refused = try await sandbox.run(["list", "--watch", "--json"] + store)
        #expect(refused.status == 64, "\(refused)")
    }

    @Test("a sync that pulls a recipe into the watched store is redrawn")
    func watchesSyncPulls() async throws {
        let sandbox = try Sandbox()
        let local = ["--store", sandbox.path("local.sqlite"), "--no-samples"]
        let remote = sandbox.path("remote.sqlite")
        #expect(try await sandbox.run(["add", "--name", "Local Stew"] + local).status == 0)
        #expect(try await sandbox.run(["add", "--name", "Remote Dal", "--store", remote, "--no-samples"]).status == 0)
        let watcher = try await sandbox.start(["list", "--watch"] + local)
        #expect(await watcher.waitForOutput(containing: "Local Stew") != nil, "watcher stderr: \(watcher.stderr)")
        let sync = try await sandbox.run(["sync", "--pull-only", "--remote", remote] + local)
        #expect(sync.status == 0, "\(sync)")
        #expect(await watcher.waitForOutput(containing: "Remote Dal") != nil, "stdout: \(watcher.stdout)")
        watcher.signal(SIGINT)
        let result = try await watcher.finish(timeout: 30)
        #expect(result.status == 130, "\(result)")
        let last = try #require(Self.lists(result.stdout).last)
        #expect(last.contains("Local Stew") && last.contains("Remote Dal"), "\(result)")
    }
}
