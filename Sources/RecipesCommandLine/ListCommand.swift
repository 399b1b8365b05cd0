public import ArgumentParser
import RecipesKit

/// `recipes list`: the recipes, filtered and sorted, as a table or JSON.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", _superCommandName: RecipesCommand.name,
        abstract: "List recipes.",
        discussion: """
            Names are in order ignoring case and accents. --search looks in names, overviews, type \
            names and ingredient names (ignoring case and accents) and lists the best matches first \
            unless --sort is given. --limit and --offset page through the list. --json prints an \
            array of {id, name, type, prepTime, overview, ingredientCount, hasImage}. --watch keeps \
            the list up: it redraws it whenever it changes (a save by another recipes command, a \
            sync), checking the store every 250 ms, until Ctrl-C (exit status 130); when stdout is \
            not a terminal each new list follows a line of three dashes. If the store file is \
            deleted, replaced (a backup restored with mv) or truncated meanwhile, the watch says so \
            and exits with status 1.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("Only recipes of this type (ignoring case and accents).", valueName: "name"))
    var type: String?

    @Option(name: .long, help: ArgumentHelp("Only recipes whose name, overview, type or an ingredient contains this text (ignoring case and accents).", valueName: "text"))
    var search: String?

    @Option(name: .long, help: "Order: name (default), type or prep-time; a search lists the best matches first unless this is given.")
    var sort: RecipeSort?

    // `.unconditional`: `--limit -1` reaches `validate()` and is refused with its reason,
    // instead of `-1` being taken for an option and reported as a missing value.
    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Show at most this many recipes.", valueName: "n"))
    var limit: Int?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Skip this many recipes first (with --limit: the page to show).", valueName: "k"))
    var offset: Int = 0

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    @Flag(name: .long, help: "Keep watching: redraw the list whenever it changes, until Ctrl-C.")
    var watch = false

    func validate() throws {
        if watch && json { throw ValidationError("--watch prints the table; it cannot be combined with --json") }
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, not \(limit)") }
        if offset < 0 { throw ValidationError("--offset must be 0 or more, not \(offset)") }
    }

    func run() async throws {
        try await reportingFailures {
            // The watch stays open and, when its file is replaced under it, empties the old
            // write-ahead log beside the path: a write, so it opens the store for writing.
            let session = try await Session.open(global, purpose: watch ? .normal : .browsing)
            let query = RecipeQuery(type: type, search: search, sort: sort, limit: limit, offset: offset)
            if watch {
                try await ListWatch(store: session.store, query: query).run()
                return
            }
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
            // Gathered a page at a time, letting go of each page's objects: the table needs
            // every row for its column widths, but not the recipes behind them.
            var recipes: [RecipeSummary] = []
            try session.book.forEachSummaryPage(query) { recipes += $0 }
            guard !recipes.isEmpty else {
                if offset > 0 {
                    Terminal.note("no recipe at offset \(offset)")
                    return
                }
                Terminal.note(type == nil && search == nil ? "no recipes yet; add one with `recipes add --name NAME`" : "no recipe matches")
                return
            }
            Terminal.print(lines: Self.table(recipes))
        }
    }

    /// The lines of the list's table.
    static func table(_ recipes: [RecipeSummary]) -> [String] {
        let rows = recipes.map { [$0.name, $0.type ?? "-", $0.prepTime ?? "-", String($0.ingredientCount)] }
        return Terminal.table(["NAME", "TYPE", "PREP TIME", "INGREDIENTS"], rows)
    }
}

extension RecipeSort: ExpressibleByArgument {}
