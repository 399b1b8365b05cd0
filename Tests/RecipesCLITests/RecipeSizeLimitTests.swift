import Foundation
import Testing
import TestSupport

/// `add` and `edit` refuse a recipe too large to sync (`RecipeLimits`): a clear error naming
/// the field and both sizes, exit 1, and nothing written.
@Suite("recipes add and edit refuse what could not sync")
struct RecipeSizeLimitTests {
    @Test("a 1.5 MB instructions file, an 11 MB picture and a 1.5 MB edit are refused before anything is written")
    func tooLargeIsRefused() async throws {
        let sandbox = try Sandbox("size-limits")
        let machine = ["--store", sandbox.path("a.sqlite"), "--no-samples"]
        let method = try sandbox.write("method.txt", Data(String(repeating: "stir\n", count: 300_000).utf8))
        let refused = try await sandbox.run(["add", "--name", "Long Stew", "--instructions-file", method] + machine)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.stderr.contains("invalid instructions") && refused.stderr.contains("1500000 bytes")
                && refused.stderr.contains("at most 1000000"), "\(refused.stderr)")

        var picture = TestFixtures.pngBytes
        picture.append(Data(count: 11_000_000))
        let image = try sandbox.write("huge.png", picture)
        let huge = try await sandbox.run(["add", "--name", "Big Picture", "--image", image] + machine)
        #expect(huge.status == 1 && huge.stderr.contains("invalid image"), "\(huge)")

        let list = try await sandbox.run(["list", "--json"] + machine)
        #expect((try list.json() as? [Any])?.isEmpty == true, "\(list)")

        #expect(try await sandbox.run(["add", "--name", "Short Stew"] + machine).status == 0)
        let edited = try await sandbox.run(["edit", "Short Stew", "--instructions-file", method] + machine)
        #expect(edited.status == 1 && edited.stderr.contains("invalid instructions"), "\(edited)")
        let shown = try await sandbox.run(["show", "Short Stew", "--json"] + machine)
        #expect((try shown.json() as? [String: Any])?["instructions"] as? String == nil, "\(shown)")

        let fits = try sandbox.write("fits.txt", Data(String(repeating: "stir\n", count: 1000).utf8))
        #expect(try await sandbox.run(["edit", "Short Stew", "--instructions-file", fits] + machine).status == 0)
    }
}
