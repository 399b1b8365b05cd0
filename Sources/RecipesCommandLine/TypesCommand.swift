import ArgumentParser
import RecipesKit

/// `recipes types`: the recipe types in use and how many recipes each has.
struct TypesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "types", _superCommandName: RecipesCommand.name, abstract: "List recipe types.",
        discussion: "--json prints an array of {name, recipeCount}.")

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        try await reportingFailures {
            let session = try await Session.open(global, purpose: .browsing)
            let types = try session.book.types()
            if json {
                try Terminal.printJSON(types)
                return
            }
            Terminal.print(lines: Terminal.table(["TYPE", "RECIPES"], types.map { [$0.name, String($0.recipeCount)] }))
        }
    }
}
