import ArgumentParser
import Foundation
import ObjectGraph
import RecipesKit

/// `recipes list --watch`: prints the list, then redraws it whenever it changes, until
/// SIGINT or SIGTERM (exit status 130).
///
/// The list is re-read after every element of the book's live fetch (``RecipeBook/watch(_:)``:
/// a save in another process or a sync, noticed within the live fetch's 250 ms poll) and
/// drawn again only when its text changed. On a terminal the screen is cleared and the list
/// redrawn; otherwise each new list follows a `---` line, so a reader of the output (a test,
/// a log) sees every version in order.
///
/// It also checks every 250 ms that the store's path still names the file it opened
/// (``StoreFileGuard``): when the file is deleted, replaced or truncated, it says so and
/// exits with status 1 at once, letting go of the file, rather than showing a list no
/// longer there and holding a store other commands no longer see.
struct ListWatch {
    /// The store watched.
    let store: RecipesStore
    /// The list's filters, order and page.
    let query: RecipeQuery

    /// The separator printed before each redrawn list when stdout is not a terminal.
    static let separator = "---"

    /// Watches until interrupted.
    func run() async throws {
        let fileGuard = try StoreFileGuard(store: store)
        let live = try store.container.newBook().watch(query)
        let interrupts = InterruptHandler(notice: nil, overdue: "the watch did not stop in time; exiting now")
        defer { interrupts.stop() }
        let query = query
        let store = store
        let task = Task {
            let book = store.container.newBook()
            let onTerminal = isatty(STDOUT_FILENO) != 0
            var shown: [String]?
            for try await _ in live {
                book.context.reset()
                let lines = Self.lines(try book.list(query), query: query)
                guard lines != shown else { continue }
                if onTerminal {
                    Terminal.print("\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\n"))
                } else {
                    if shown != nil { Terminal.print(Self.separator) }
                    Terminal.print(lines.joined(separator: "\n"))
                }
                shown = lines
            }
        }
        interrupts.attach(task)
        try await fileGuard.outcome(of: task).get()
        if interrupts.wasInterrupted || task.isCancelled { throw ExitCode(130) }
    }

    /// The list as `recipes list` prints it; an empty list says so on stdout, since the
    /// watch keeps showing it.
    static func lines(_ recipes: [RecipeSummary], query: RecipeQuery) -> [String] {
        guard recipes.isEmpty else { return ListCommand.table(recipes) }
        if query.offset > 0 { return ["no recipe at offset \(query.offset)"] }
        return [query.type == nil && query.search == nil ? "no recipes yet; add one with `recipes add --name NAME`" : "no recipe matches"]
    }
}
