public import ArgumentParser
import RecipesKit

/// `recipes list`: the recipes, filtered and sorted, as a table or JSON.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List recipes.",
        discussion: """
            Names are in order ignoring case and accents. --search looks in names, overviews, type \
            names and ingredient names (ignoring case and accents) and lists the best matches first \
            unless --sort is given. --limit and --offset page through the list. --json prints an \
            array of {id, name, type, prepTime, overview, ingredientCount, hasImage}.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("Only recipes of this type (ignoring case and accents).", valueName: "name"))
    var type: String?

    @Option(name: .long, help: ArgumentHelp("Only recipes whose name, overview, type or an ingredient contains this text (ignoring case and accents).", valueName: "text"))
    var search: String?

    @Option(name: .long, help: "Order: name (default), type or prep-time; a search lists the best matches first unless this is given.")
    var sort: RecipeSort?

    @Option(name: .long, help: ArgumentHelp("Show at most this many recipes.", valueName: "n"))
    var limit: Int?

    @Option(name: .long, help: ArgumentHelp("Skip this many recipes first (with --limit: the page to show).", valueName: "k"))
    var offset: Int = 0

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, not \(limit)") }
        if offset < 0 { throw ValidationError("--offset must be 0 or more, not \(offset)") }
    }

    func run() async throws {
        try await reportingFailures {
            let session = try await Session.open(global)
            let query = RecipeQuery(type: type, search: search, sort: sort, limit: limit, offset: offset)
            if json {
                var stream = JSONArrayStream()
                var out: [UInt8] = []
                try session.book.forEachSummaryPage(query) { page in
                    for summary in page { stream.append(summary, to: &out) }
                    Terminal.write(&out)
                }
                stream.finish(to: &out)
                out.append(UInt8(ascii: "\n"))
                Terminal.write(&out)
                return
            }
            let recipes = try session.book.list(query)
            guard !recipes.isEmpty else {
                if offset > 0 {
                    Terminal.note("no recipe at offset \(offset)")
                    return
                }
                Terminal.note(type == nil && search == nil ? "no recipes yet; add one with `recipes add --name NAME`" : "no recipe matches")
                return
            }
            let rows = recipes.map { [$0.name, $0.type ?? "-", $0.prepTime ?? "-", String($0.ingredientCount)] }
            for line in Terminal.table(["NAME", "TYPE", "PREP TIME", "INGREDIENTS"], rows) { Terminal.print(line) }
        }
    }
}

extension RecipeSort: ExpressibleByArgument {}
