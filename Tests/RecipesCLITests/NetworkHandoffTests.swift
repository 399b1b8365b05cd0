import Foundation
import Testing
import TestSupport

/// `recipes` browses and edits without the network stack and hands `sync`, `serve`, `web`
/// and the seeding of a new store from its remote to `recipes-network`, the program beside
/// it. These run copies of the two built programs in a folder of their own, alone and
/// together, so what the folder holds is what the test says.
@Suite("recipes hands the network commands to recipes-network")
struct NetworkHandoffTests {
    /// A folder holding a copy of `recipes`, and of `recipes-network` when `withHelper`.
    private static func install(in sandbox: Sandbox, withHelper: Bool) throws -> URL {
        let built = try CLIBinary.url()
        let folder = sandbox.root.appendingPathComponent(withHelper ? "bin-both" : "bin-alone", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: built, to: folder.appendingPathComponent("recipes"))
        if withHelper {
            try FileManager.default.copyItem(at: built.deletingLastPathComponent().appendingPathComponent("recipes-network"),
                                             to: folder.appendingPathComponent("recipes-network"))
        }
        return folder.appendingPathComponent("recipes")
    }

    private static func run(_ executable: URL, _ arguments: [String], in sandbox: Sandbox) async throws -> RunResult {
        try await RunningProcess.start(executable, arguments: arguments, environment: sandbox.environment).finish()
    }

    @Test("without recipes-network, browsing works and sync says which program is missing, changing nothing")
    func helperMissing() async throws {
        let sandbox = try Sandbox()
        let recipes = try Self.install(in: sandbox, withHelper: false)
        let store = sandbox.path("book.sqlite")
        let listed = try await Self.run(recipes, ["list", "--store", store], in: sandbox)
        #expect(listed.status == 0 && listed.stdout.contains("NAME"), "\(listed)")

        let remote = sandbox.path("remote.sqlite")
        let synced = try await Self.run(recipes, ["sync", "--store", store, "--remote", remote], in: sandbox)
        let helperPath = recipes.deletingLastPathComponent().appendingPathComponent("recipes-network").path
        #expect(synced.status == 1, "\(synced)")
        #expect(synced.stderr.contains("recipes sync runs in the program recipes-network, which is not at \(helperPath)"), "\(synced)")
        #expect(synced.stderr.split(separator: "\n").count == 1, "\(synced)")
        #expect(!FileManager.default.fileExists(atPath: remote))

        // A new store with a remote is seeded only after the remote was asked: without the
        // helper it stays as it was, unseeded, and says why.
        let fresh = sandbox.path("fresh.sqlite")
        let seeding = try await Self.run(recipes, ["list", "--store", fresh, "--remote", remote], in: sandbox)
        #expect(seeding.status == 1 && seeding.stderr.contains("seeding a new store from its remote runs in the program recipes-network"), "\(seeding)")
        let status = try await Self.run(recipes, ["status", "--json", "--store", fresh, "--no-samples"], in: sandbox)
        #expect(status.status == 0, "\(status)")
        #expect((try status.json() as? [String: Any])?["counts"].flatMap { ($0 as? [String: Any])?["recipes"] as? Int } == 0)
    }

    @Test("recipes found through a symbolic link hands sync and first-run seeding to the helper beside the real file")
    func helperBeside() async throws {
        let sandbox = try Sandbox()
        let real = try Self.install(in: sandbox, withHelper: true)
        let linkFolder = sandbox.root.appendingPathComponent("links", isDirectory: true)
        try FileManager.default.createDirectory(at: linkFolder, withIntermediateDirectories: true)
        let link = linkFolder.appendingPathComponent("recipes")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)

        let remote = sandbox.path("remote.sqlite")
        let a = ["--store", sandbox.path("a.sqlite"), "--remote", remote]
        // The first command on a new store with a remote: the helper checks the remote (empty),
        // seeds the samples and pushes them, then lists them, in the one process.
        let first = try await Self.run(link, ["list", "--json"] + a, in: sandbox)
        #expect(first.status == 0, "\(first)")
        #expect(first.stderr.contains("pushed them to"), "\(first)")
        let listed = try #require(try first.json() as? [[String: Any]])
        #expect(!listed.isEmpty)

        // A second store syncs through the same remote and gets every recipe.
        let b = ["--store", sandbox.path("b.sqlite"), "--no-samples", "--remote", remote]
        let synced = try await Self.run(link, ["sync", "--json"] + b, in: sandbox)
        #expect(synced.status == 0, "\(synced)")
        #expect((try synced.json() as? [String: Any])?["result"] as? String == "succeeded")
        let names = try #require(try await Self.run(link, ["list", "--json"] + b, in: sandbox).json() as? [[String: Any]])
        #expect(Set(names.compactMap { $0["name"] as? String }) == Set(listed.compactMap { $0["name"] as? String }))
    }

    @Test("recipes itself links neither the HTTP client nor the servers; recipes-network links both")
    func layering() throws {
        let recipes = try CLIBinary.url()
        let helper = recipes.deletingLastPathComponent().appendingPathComponent("recipes-network")
        // Swift symbol names carry their module's name, so a module linked in shows in the file.
        func links(_ module: String, _ file: URL) throws -> Bool {
            let bytes = try Data(contentsOf: file, options: .alwaysMapped)
            return bytes.range(of: Data(module.utf8)) != nil
        }
        for module in ["AsyncHTTPClient", "Hummingbird", "CouchServer", "RecipesSyncKit"] {
            #expect(try !links(module, recipes), "recipes links \(module)")
            #expect(try links(module, helper), "recipes-network does not link \(module)")
        }
    }
}
