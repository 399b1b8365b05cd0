package import ArgumentParser

/// `recipes web`: the recipe book in a browser, served from the store the other commands
/// use, with `--remote … --live` syncing in the same process.
package struct WebCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "web", _superCommandName: RecipesCommand.name,
        abstract: "Serve the recipe book as web pages (browse, search, add, edit, photos, live updates).",
        discussion: """
            Serves the store (--store, seeded like the other commands on first use) at \
            http://BIND:PORT/: the book as a grid with thumbnails (filter by type, search as \
            list --search does, sort), each recipe with its photo, and forms to add, edit and \
            delete recipes with the same checks as add and edit. Pages work without JavaScript; \
            our one small script adds live updates (a change saved by another process or a sync \
            shows within a second) and the ingredient rows' buttons. Nothing is fetched from the \
            internet. Prints "listening on http://HOST:PORT" once ready; SIGINT or SIGTERM stops it.

            With --tls-cert and --tls-key (PEM files, checked before it listens) it serves \
            https://, with Secure cookies and Strict-Transport-Security; SIGHUP reloads them \
            without dropping connections. Binding beyond loopback without them prints a warning: \
            the password would cross the network in clear. An https:// --remote is verified \
            against the system's CAs and --ca-file.

            It binds 127.0.0.1 by default, for this machine only. Binding another address (to \
            reach the book from a phone on the home network) requires --password-file: browsers \
            then log in with that password. The same file is the store's password, so private \
            notes show and can be edited; without it they never show.

            With --remote URL --live it also keeps syncing with the remote, as sync --live does, \
            so pages follow changes made on other machines; sync events are logged on stderr. If \
            the store file is deleted or replaced meanwhile, it says so and exits with status 1.
            """)

    @OptionGroup package var global: GlobalOptions

    @Option(name: .long, help: "Port to listen on (0 picks a free port).")
    package var port: Int = 8080

    @Option(name: .long, help: "Address to bind; another than 127.0.0.1 needs --password-file.")
    package var bind: String = "127.0.0.1"

    @Flag(name: .long, help: "Keep syncing with --remote while serving (as sync --live).")
    package var live = false

    /// `--tls-cert` and `--tls-key`.
    @OptionGroup package var tls: TLSServingOptions

    /// A command with every option at its default, as ArgumentParser starts from.
    package init() {}

    /// Checks the options before anything opens.
    package func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535.") }
        if bind.isEmpty { throw ValidationError("--bind needs an address, e.g. 127.0.0.1 or 0.0.0.0.") }
    }

    /// Opens the store, starts the server (and the live sync), and runs until a signal, in
    /// the program that links the server (``NetworkCommands``).
    package func run() async throws {
        try await reportingFailures { try await RecipesCommand.network.web(self) }
    }
}
