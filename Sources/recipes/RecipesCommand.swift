import ArgumentParser

/// The `recipes` program: browse, edit and sync recipes, and serve the local store over
/// CouchDB's HTTP API. Each job is a subcommand so `--help` lists them in one place.
@main
struct RecipesCommand: AsyncParsableCommand {
    /// The program's name, summary and subcommands.
    static let configuration = CommandConfiguration(
        commandName: "recipes",
        abstract: "Recipes: an offline-first recipe book that syncs with CouchDB.",
        discussion: """
            Global options (--store, --remote, --no-samples, --verbose) go before or after the \
            subcommand. The store is --store, else $RECIPES_STORE, else $XDG_DATA_HOME/recipes/recipes.sqlite. \
            The remote is --remote, else $RECIPES_REMOTE, else "remote" in \
            $XDG_CONFIG_HOME/recipes/recipes.json: a CouchDB URL or the path of another store. \
            The first command on a new store seeds it with sample recipes unless --no-samples \
            or RECIPES_NO_SAMPLES=1 is given.
            """,
        subcommands: [
            ListCommand.self, ShowCommand.self, AddCommand.self, EditCommand.self, DeleteCommand.self, WebCommand.self,
            TypesCommand.self, ImportCommand.self, SyncCommand.self, StatusCommand.self, ServeCommand.self,
            RekeyCommand.self,
        ]
    )

    /// Runs the program, accepting global options before the subcommand (``GlobalOptions/hoisted(_:)``).
    static func main() async {
        await main(GlobalOptions.hoisted(Array(CommandLine.arguments.dropFirst())))
    }
}
