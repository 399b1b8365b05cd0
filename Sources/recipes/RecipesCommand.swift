import ArgumentParser

/// The `recipes` program: browse, edit and sync recipes, and serve the local store over
/// CouchDB's HTTP API. Each job is a subcommand so `--help` lists them in one place.
@main
struct RecipesCommand: AsyncParsableCommand {
    /// The program's name, summary and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "recipes",
        abstract: "Recipes: an offline-first recipe book that syncs with CouchDB.",
        subcommands: [ServeCommand.self]
    )
}
