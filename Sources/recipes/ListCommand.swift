import ArgumentParser
import RecipesKit

/// `recipes list`: the recipes, filtered and sorted, as a table or JSON.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List recipes.",
        discussion: "--json prints an array of {id, name, type, prepTime, overview, ingredientCount, hasImage}.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("Only recipes of this type (ignoring case).", valueName: "name"))
    var type: String?

    @Option(name: .long, help: ArgumentHelp("Only recipes whose name, overview, type or an ingredient contains this text.", valueName: "text"))
    var search: String?

    @Option(name: .long, help: "Order: name, type or prep-time.")
    var sort: RecipeSort = .name

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        try await reportingFailures {
            let session = try await Session.open(global)
            let recipes = try session.book.list(RecipeQuery(type: type, search: search, sort: sort))
            if json {
                try Terminal.printJSON(recipes)
                return
            }
            guard !recipes.isEmpty else {
                Terminal.note(type == nil && search == nil ? "no recipes yet; add one with `recipes add --name NAME`" : "no recipe matches")
                return
            }
            let rows = recipes.map { [$0.name, $0.type ?? "-", $0.prepTime ?? "-", String($0.ingredientCount)] }
            for line in Terminal.table(["NAME", "TYPE", "PREP TIME", "INGREDIENTS"], rows) { Terminal.print(line) }
        }
    }
}

extension RecipeSort: ExpressibleByArgument {}
