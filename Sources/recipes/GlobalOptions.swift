import ArgumentParser
import RecipesKit

/// The options every subcommand that opens the store understands.
struct GlobalOptions: ParsableArguments {
    /// `--store PATH`.
    @Option(name: .long, help: ArgumentHelp("The store file.", valueName: "path"))
    var store: String?

    /// `--remote URL`.
    @Option(name: .long, help: ArgumentHelp("The remote to sync with: a CouchDB URL or another store's path.", valueName: "url"))
    var remote: String?

    /// `--no-samples`.
    @Flag(name: .long, help: "Do not seed a new store with sample recipes.")
    var noSamples = false

    /// `--verbose`.
    @Flag(name: .long, help: "Explain what happens on stderr.")
    var verbose = false

    /// The options as configuration resolution takes them.
    var configurationOptions: RecipesConfiguration.Options {
        RecipesConfiguration.Options(store: store, remote: remote, noSamples: noSamples)
    }
}
