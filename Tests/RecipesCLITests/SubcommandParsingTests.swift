import Foundation
import Testing
import TestSupport

/// A subcommand is parsed on its own (`RecipesCommand` skips the root's extra parses); its
/// help, usage and errors must still name the program, as they do through the root.
@Suite("recipes: each subcommand's help, usage and errors name the program")
struct SubcommandParsingTests {
    static let subcommands = ["list", "show", "add", "edit", "delete", "web", "types", "import", "sync", "status", "serve", "rekey"]

    @Test("`recipes NAME --help` is the help `recipes help NAME` prints", arguments: subcommands)
    func helpNamesTheProgram(_ name: String) async throws {
        let sandbox = try Sandbox()
        let direct = try await sandbox.run([name, "--help"], environment: ["COLUMNS": "100"])
        let throughRoot = try await sandbox.run(["help", name], environment: ["COLUMNS": "100"])
        #expect(direct.status == 0, "\(direct)")
        #expect(direct.stdout.contains("USAGE: recipes \(name)"), "\(direct)")
        #expect(direct.stdout == throughRoot.stdout)
    }

    @Test("a bad option, a bad value and a missing argument are usage errors that point to `recipes NAME --help`")
    func errorsPointToTheProgramsHelp() async throws {
        let sandbox = try Sandbox()
        let store = sandbox.path("book.sqlite")
        for (arguments, name) in [(["list", "--bogus"], "list"), (["list", "--sort", "nope"], "list"), (["list", "--watch", "--json"], "list"),
                                  (["show"], "show"), (["status", "--bogus"], "status"), (["types", "extra"], "types")] {
            let result = try await sandbox.run(arguments + ["--store", store])
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stderr.contains("See 'recipes \(name) --help' for more information."), "\(arguments): \(result)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result)")
        }
        // None of them opened, let alone created, the store.
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("a completion script asked for after a subcommand is still the program's script")
    func completionScriptAfterASubcommand() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(["list", "--generate-completion-script", "bash"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("_recipes()") || result.stdout.contains("complete -F"), "\(result.stdout.prefix(200))")
    }
}
