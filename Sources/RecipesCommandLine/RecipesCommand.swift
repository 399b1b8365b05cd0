package import ArgumentParser
import Dispatch
import Synchronization

/// The `recipes` program: browse, edit and sync recipes, and serve the local store over
/// CouchDB's HTTP API. Each job is a subcommand so `--help` lists them in one place.
package struct RecipesCommand: AsyncParsableCommand {
    /// The program's name, summary and subcommands.
    package static let configuration = CommandConfiguration(
        commandName: name,
        abstract: "Recipes: an offline-first recipe book that syncs with CouchDB.",
        discussion: """
            Global options (--store, --remote, --no-samples, --verbose) go before or after the \
            subcommand. The store is --store, else $RECIPES_STORE, else $XDG_DATA_HOME/recipes/recipes.sqlite. \
            The remote is --remote, else $RECIPES_REMOTE, else "remote" in \
            $XDG_CONFIG_HOME/recipes/recipes.json: a CouchDB URL or the path of another store. \
            The first command on a new store seeds it with sample recipes unless --no-samples \
            or RECIPES_NO_SAMPLES=1 is given.
            """,
        subcommands: directSubcommands.map { $0 as any ParsableCommand.Type }
    )

    /// The program's name, which each subcommand names as its super-command.
    static let name = "recipes"

    /// Runs the program, accepting global options before the subcommand
    /// (``GlobalOptions/hoisted(_:)``), with `network` running the commands that reach other
    /// machines.
    private static func main(network: any NetworkCommands) async {
        installedNetwork.withLock { $0 = network }
        let arguments = GlobalOptions.hoisted(Array(CommandLine.arguments.dropFirst()))
        guard var command = directlyParsed(arguments) else {
            await main(arguments)
            return
        }
        do {
            try await command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// The subcommand `arguments` ask for, parsed as a command of its own, or `nil` when they
    /// are for the root to parse and report.
    ///
    /// Parsing through the root costs every start more (the more options, the more):
    /// ArgumentParser parses the arguments twice more looking for
    /// `--generate-completion-script` and reflects over the root's arguments too. So a
    /// subcommand is parsed on its own, as each one names `recipes` as its super-command for its
    /// help and usage (ArgumentParser's experimental `_superCommandName`, kept honest by
    /// `SubcommandParsingTests`). Everything else goes through the root, as before: no subcommand
    /// (`--help`, `help list`), a completion script, a help request, and any arguments that do
    /// not parse, so that their error reads exactly as the root reports it.
    private static func directlyParsed(_ arguments: [String]) -> (any AsyncParsableCommand)? {
        guard let name = arguments.first,
              !arguments.contains(where: { $0.hasPrefix("--generate-completion-script") }),
              let type = directSubcommands.first(where: { $0._commandName == name })
        else { return nil }
        return try? type.parseAsRoot(Array(arguments.dropFirst())) as? any AsyncParsableCommand
    }

    /// The subcommands, each configured with `recipes` as its super-command.
    private static let directSubcommands: [any AsyncParsableCommand.Type] = [
        ListCommand.self, ShowCommand.self, AddCommand.self, EditCommand.self, DeleteCommand.self, WebCommand.self,
        TypesCommand.self, ImportCommand.self, SyncCommand.self, StatusCommand.self, ServeCommand.self,
        RekeyCommand.self,
    ]

    /// Runs the program as ``main(network:)`` does, from a synchronous `main`: the command runs
    /// on the global executor while the main thread waits for it. An `async` main would end
    /// the main thread with `pthread_exit`, whose forced unwind looks up every frame of the
    /// stack in the unwind tables at each start (in a fully static program, after sorting all
    /// of them first); the program ends with `exit` either way.
    package static func runWaiting(network: any NetworkCommands) {
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await main(network: network)
            finished.signal()
        }
        finished.wait()
    }

    /// The commands that reach other machines, as the program's `main` installed them.
    static var network: any NetworkCommands {
        guard let network = installedNetwork.withLock({ $0 }) else {
            preconditionFailure("RecipesCommand.main(network:) installs the network commands before any command runs")
        }
        return network
    }

    private static let installedNetwork = Mutex<(any NetworkCommands)?>(nil)

    /// Makes the command ArgumentParser runs to print the program's help.
    package init() {}
}
