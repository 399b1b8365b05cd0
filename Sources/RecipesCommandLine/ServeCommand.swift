package import ArgumentParser
package import Foundation

/// `recipes serve`: serves the local databases over CouchDB's HTTP API so CouchDB's
/// replicator, PouchDB or another `recipes` can sync with this machine.
package struct ServeCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    package static let configuration = CommandConfiguration(
        commandName: "serve", _superCommandName: RecipesCommand.name,
        abstract: "Serve the local databases over CouchDB's HTTP API.",
        discussion: """
            Each database is one store file in the data directory. As in CouchDB 3, every request \
            except GET /, GET /_up and /_session needs the administrator (--user with --password \
            or --password-file; basic auth or a cookie session from POST /_session). \
            --allow-anonymous-reads lets requests without credentials read (GET, HEAD and the \
            read-only POSTs _all_docs, _find, _bulk_get, _revs_diff, _changes); --allow-anonymous \
            lets them do everything. Without --user, one of the two is required: \
            --allow-anonymous-reads then serves read-only. Requests must address the server by a \
            loopback name (localhost, 127.0.0.1, [::1]), the --bind address, or a --public-host. \
            Prints "listening on http://HOST:PORT" once ready (https:// with --tls-cert and --tls-key, \
            PEM files checked before it listens; SIGHUP reloads them without dropping connections; \
            binding beyond loopback without them prints a warning). SIGTERM or SIGINT stops it: requests \
            in flight get 5 s to finish, then are cancelled and their connections closed, so it \
            exits within about 5 s whatever clients do. \
            --add-user NAME --password-file F [--roles a,b] creates or updates the account NAME in \
            the _users database of the data directory (its password stored only as a PBKDF2 hash) \
            and exits without serving; accounts log in like CouchDB's, and each database's \
            _security decides what they may do. \
            The administrator can replicate between these databases and other CouchDB servers \
            inside the server: POST /_replicate (one-shot, continuous or cancel), or documents in \
            the _replicator database, which resume from their checkpoints when the server \
            starts again; _active_tasks and _scheduler/jobs|docs show how they are doing.
            """
    )

    @Option(name: .long, help: "Directory of database files (default: $XDG_DATA_HOME/recipes/server or ~/.local/share/recipes/server).")
    package var dataDir: String?

    @Option(name: .long, help: "Address to bind.")
    package var bind: String = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp(
        "Another name clients reach the server by (the Host header), e.g. a DNS name when binding a public address; repeat it.",
        valueName: "name"))
    package var publicHost: [String] = []

    @Option(name: .long, help: "Port to listen on (0 picks a free port).")
    package var port: Int = 5984

    @Option(name: .long, help: "Administrator user name.")
    package var user: String?

    @Option(name: .long, help: "Administrator password (prefer --password-file: command lines are visible to other users).")
    package var password: String?

    @Option(name: .long, help: "File whose first line is the administrator password.")
    package var passwordFile: String?

    @Flag(name: .long, help: "Let requests without credentials read (GET, HEAD, and the read-only POSTs).")
    package var allowAnonymousReads = false

    @Flag(name: .long, help: "Let requests without credentials read and write.")
    package var allowAnonymous = false

    @Option(name: .long, help: "Largest request body accepted, in megabytes.")
    package var maxBodyMb: Int = 64

    @Option(name: .long, help: "Request-body megabytes held at once across all requests; others wait, then get 503.")
    package var maxTotalBodyMb: Int = 256

    @Option(name: .customLong("body-wait"), help: "Seconds a request waits for room in --max-total-body-mb before it gets 503.")
    package var bodyWait: Int = 30

    @Option(name: .customLong("idle-timeout"), help: "Seconds a connection may send nothing (between requests, or partway through a request body) before it is closed.")
    package var idleTimeout: Int = 60

    @Option(name: .long, help: ArgumentHelp(
        "Create or update this account in _users (its password from --password-file), then exit.",
        valueName: "name"))
    package var addUser: String?

    @Option(name: .long, help: ArgumentHelp("With --add-user: the account's roles, comma-separated.", valueName: "a,b"))
    package var roles: String?

    @Option(name: .long, help: "Browser origin allowed to call the server (CORS, for PouchDB in a browser); repeat it, or * for any.")
    package var corsOrigin: [String] = []

    /// `--tls-cert` and `--tls-key`.
    @OptionGroup package var tls: TLSServingOptions

    @Option(name: .customLong("ca-file"), help: ArgumentHelp(
        "A PEM file of CA certificates that server-side replications (_replicate, _replicator) trust for an https:// remote, besides the system's (or RECIPES_CA_FILE, or \"caFile\" in the configuration file).",
        valueName: "file"))
    package var caFile: String?

    /// A command with every option at its default, as ArgumentParser starts from.
    package init() {}

    /// Checks the option combinations before anything starts.
    package func validate() throws {
        if idleTimeout < 1 { throw ValidationError("--idle-timeout must be 1 second or more.") }
        if bodyWait < 0 { throw ValidationError("--body-wait must be 0 seconds or more.") }
        // A request waiting for room is not read meanwhile, which the idle timeout would
        // take for a silent client.
        if bodyWait >= idleTimeout {
            throw ValidationError("--body-wait (\(bodyWait) s) must be shorter than --idle-timeout (\(idleTimeout) s).")
        }
        if let addUser {
            if addUser.isEmpty { throw ValidationError("--add-user needs a user name.") }
            if passwordFile == nil { throw ValidationError("--add-user needs --password-file with the account's password.") }
            if password != nil || user != nil {
                throw ValidationError("--add-user takes the account's password from --password-file; do not give --user or --password.")
            }
            return
        }
        if roles != nil { throw ValidationError("--roles needs --add-user.") }
        if password != nil, passwordFile != nil {
            throw ValidationError("Give either --password or --password-file, not both.")
        }
        if (password != nil || passwordFile != nil), user == nil {
            throw ValidationError("--password needs --user.")
        }
        if user != nil, password == nil, passwordFile == nil {
            throw ValidationError("--user needs --password or --password-file.")
        }
        if !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535.") }
        if maxBodyMb < 1 { throw ValidationError("--max-body-mb must be at least 1.") }
        if maxTotalBodyMb < maxBodyMb {
            throw ValidationError("--max-total-body-mb must be at least --max-body-mb (\(maxBodyMb)).")
        }
        if user == nil, !allowAnonymous, !allowAnonymousReads {
            throw ValidationError(
                "Give --user and --password-file, or --allow-anonymous-reads to serve read-only, or --allow-anonymous.")
        }
        for host in publicHost where host.isEmpty || host.contains("/") || host.contains(" ") {
            throw ValidationError("--public-host \(host) is not a host name.")
        }
    }

    /// Starts the server, in the program that links it (``NetworkCommands``), and runs
    /// until SIGINT or SIGTERM.
    package func run() async throws {
        try await reportingFailures { try await RecipesCommand.network.serve(self) }
    }

    /// `$XDG_DATA_HOME/recipes/server`, else `~/.local/share/recipes/server`.
    package static func defaultDataDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("recipes/server")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/recipes/server")
    }
}
