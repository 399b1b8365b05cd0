import ArgumentParser
import Foundation
import ObjectGraph
import RecipesKit

/// `recipes-bench write-notes` (hidden): gives every recipe of a store a private note,
/// encrypted with the password in a file, in one save. `recipes-bench cli --encrypted-notes`
/// runs it as a child process, so that the memory it takes does not count in the peak RSS
/// of the commands timed after it (a spawned child starts from its parent's peak).
struct NotesWriter: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "write-notes",
        abstract: "Give every recipe of a store an encrypted private note (used by `cli --encrypted-notes`).",
        shouldDisplay: false)

    @Option(help: "The store to write.")
    var store: String

    @Option(help: "A file whose first line is the password.")
    var passwordFile: String

    func run() throws {
        let password = try String(contentsOfFile: passwordFile, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        guard !password.isEmpty else { throw ValidationError("the password file \(passwordFile) is empty") }
        let opened = try RecipesStore(url: URL(fileURLWithPath: store))
        try opened.unlock(password: password)
        let context = opened.container.newContext(name: "bench-notes")
        let recipes = try context.fetch(FetchRequest(entityName: Recipe.entityName))
        for (n, object) in recipes.enumerated() {
            try Recipe(object).notes = "Private note \(n): less salt, more thyme; the oven runs hot."
        }
        try context.save()
        print(recipes.count)
    }
}
