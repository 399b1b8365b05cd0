import ArgumentParser
import CouchServer
import Foundation
import Logging

/// `recipes serve`: serves the local databases over CouchDB's HTTP API so CouchDB's
/// replicator, PouchDB or another `recipes` can sync with this machine.
struct ServeCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the local databases over CouchDB's HTTP API.",
        discussion: """
            Each database is one store file in the data directory. Reads are open; writes need \
            --user/--password (basic auth or a cookie session from POST /_session) unless \
            --allow-anonymous is given. Prints "listening on http://HOST:PORT" once ready.
            """
    )

    @Option(name: .long, help: "Directory of database files (default: $XDG_DATA_HOME/recipes/server or ~/.local/share/recipes/server).")
    var dataDir: String?

    @Option(name: .long, help: "Address to bind.")
    var bind: String = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on (0 picks a free port).")
    var port: Int = 5984

    @Option(name: .long, help: "Administrator user name.")
    var user: String?

    @Option(name: .long, help: "Administrator password (prefer --password-file: command lines are visible to other users).")
    var password: String?

    @Option(name: .long, help: "File whose first line is the administrator password.")
    var passwordFile: String?

    @Flag(name: .long, help: "Let requests without credentials write.")
    var allowAnonymous = false

    @Option(name: .long, help: "Largest request body accepted, in megabytes.")
    var maxBodyMb: Int = 64

    @Option(name: .long, help: "Browser origin allowed to call the server (CORS, for PouchDB in a browser); repeat it, or * for any.")
    var corsOrigin: [String] = []

    /// Checks the option combinations before anything starts.
    func validate() throws {
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
    }

    /// Starts the server and runs until SIGINT or SIGTERM.
    func run() async throws {
        var credentials: ServerCredentials? = nil
        if let user {
            let secret: String
            if let passwordFile {
                guard let text = try? String(contentsOfFile: passwordFile, encoding: .utf8) else {
                    throw ValidationError("Cannot read --password-file \(passwordFile): check the path and its permissions.")
                }
                secret = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
                guard !secret.isEmpty else { throw ValidationError("--password-file \(passwordFile) is empty.") }
            } else {
                secret = password ?? ""
            }
            credentials = ServerCredentials(user: user, password: secret)
        }
        let directory = dataDir.map { URL(fileURLWithPath: $0) } ?? Self.defaultDataDirectory()
        var logger = Logger(label: "recipes.serve")
        logger.logLevel = .warning
        let server = CouchServer(
            configuration: CouchServerConfiguration(
                dataDirectory: directory, host: bind, port: port, credentials: credentials,
                allowAnonymousWrites: allowAnonymous, maxRequestBodySize: maxBodyMb * 1024 * 1024,
                corsOrigins: corsOrigin),
            logger: logger)
        let boundPort: Int
        do {
            boundPort = try await server.start(handleSignals: true)
        } catch {
            FileHandle.standardError.write(Data("recipes serve: \(error)\n".utf8))
            throw ExitCode.failure
        }
        if credentials == nil, !allowAnonymous {
            FileHandle.standardError.write(Data(
                "recipes serve: no --user given and no --allow-anonymous: serving read-only.\n".utf8))
        }
        let host = bind.contains(":") ? "[\(bind)]" : bind
        // Written straight to the file descriptor: scripts wait for this line through a pipe.
        FileHandle.standardOutput.write(Data("listening on http://\(host):\(boundPort)\n".utf8))
        try await server.waitUntilStopped()
    }

    /// `$XDG_DATA_HOME/recipes/server`, else `~/.local/share/recipes/server`.
    static func defaultDataDirectory() -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("recipes/server")
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/share/recipes/server")
    }
}
