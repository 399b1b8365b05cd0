import ArgumentParser
import Foundation
import Logging
import RecipesKit
import RecipesWeb
import Replication

/// `recipes web`: the recipe book in a browser, served from the store the other commands
/// use, with `--remote … --live` syncing in the same process.
struct WebCommand: AsyncParsableCommand {
    /// The subcommand's name and help.
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Serve the recipe book as web pages (browse, search, add, edit, photos, live updates).",
        discussion: """
            Serves the store (--store, seeded like the other commands on first use) at \
            http://BIND:PORT/: the book as a grid with thumbnails (filter by type, search as \
            list --search does, sort), each recipe with its photo, and forms to add, edit and \
            delete recipes with the same checks as add and edit. Pages work without JavaScript; \
            our one small script adds live updates (a change saved by another process or a sync \
            shows within a second) and the ingredient rows' buttons. Nothing is fetched from the \
            internet. Prints "listening on http://HOST:PORT" once ready; SIGINT or SIGTERM stops it.

            It binds 127.0.0.1 by default, for this machine only. Binding another address (to \
            reach the book from a phone on the home network) requires --password-file: browsers \
            then log in with that password. The same file is the store's password, so private \
            notes show and can be edited; without it they never show.

            With --remote URL --live it also keeps syncing with the remote, as sync --live does, \
            so pages follow changes made on other machines; sync events are logged on stderr. If \
            the store file is deleted or replaced meanwhile, it says so and exits with status 1.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Port to listen on (0 picks a free port).")
    var port: Int = 8080

    @Option(name: .long, help: "Address to bind; another than 127.0.0.1 needs --password-file.")
    var bind: String = "127.0.0.1"

    @Flag(name: .long, help: "Keep syncing with --remote while serving (as sync --live).")
    var live = false

    /// Checks the options before anything opens.
    func validate() throws {
        if !(0...65535).contains(port) { throw ValidationError("--port must be between 0 and 65535.") }
        if bind.isEmpty { throw ValidationError("--bind needs an address, e.g. 127.0.0.1 or 0.0.0.0.") }
    }

    /// Opens the store, starts the server (and the live sync), and runs until a signal.
    func run() async throws {
        try await reportingFailures {
            let session = try await Session.open(global, unlocking: .ifConfigured)
            var password: String?
            if let file = try? session.configuration.checkedPasswordFileURL() {
                password = try Session.readPassword(file)
            }
            var logger = Logger(label: "recipes.web") { StreamLogHandler.standardError(label: $0) }
            logger.logLevel = global.verbose ? .info : .warning
            // A live sync without a remote is refused before anything listens.
            let liveSync = try live ? prepareLiveSync(session, logger: logger) : nil
            // Serving a store file that was deleted or replaced would show a book nobody
            // writes any more: say so and stop, as `list --watch` and `sync --live` do.
            let fileGuard = try StoreFileGuard(store: session.store)
            let server: RecipesWebServer
            do {
                server = try RecipesWebServer(store: session.store,
                                              configuration: WebConfiguration(host: bind, port: port, password: password),
                                              logger: logger)
            } catch {
                throw CommandFailure(message: "\(error)")
            }
            let boundPort: Int
            do {
                boundPort = try await server.start(handleSignals: true)
            } catch {
                throw CommandFailure(message: "\(error)")
            }
            let sync = liveSync.map(Self.startLiveSync)
            let host = bind.contains(":") ? "[\(bind)]" : bind
            // Written straight to the file descriptor: scripts wait for this line through a pipe.
            FileHandle.standardOutput.write(Data("listening on http://\(host):\(boundPort)\n".utf8))
            // The guard cancels this task when the file changes; the server then stops.
            let serving = Task {
                try await withTaskCancellationHandler {
                    try await server.waitUntilStopped()
                } onCancel: {
                    Task { await server.stop() }
                }
            }
            let outcome: Result<Void, any Error>
            do {
                outcome = try await fileGuard.outcome(of: serving)
            } catch {
                await server.stop()
                sync?.cancel()
                throw error
            }
            sync?.cancel()
            _ = await sync?.result
            try outcome.get()
        }
    }

    /// The sync with the configured remote that `--live` runs.
    private func prepareLiveSync(_ session: Session, logger: Logger) throws -> RecipesSync {
        guard let remoteURL = session.configuration.remoteURL else {
            throw CommandFailure(message: "--live needs a remote; give --remote URL, set RECIPES_REMOTE, or put {\"remote\": \"URL\"} in \(session.configuration.configFileURL.path)")
        }
        var quiet = logger
        if !global.verbose { quiet.logLevel = .critical }
        var clientOptions = CouchClientOptions()
        clientOptions.maxRetries = 2
        do {
            return try session.store.sync(with: remoteURL, clientOptions: clientOptions, logger: quiet)
        } catch {
            throw CommandFailure(message: "\(error)")
        }
    }

    /// Starts `sync` as `sync --live` does, in this process; its events go to stderr, as
    /// `sync --live` writes them.
    private static func startLiveSync(_ sync: RecipesSync) -> Task<Void, Never> {
        let printer = LiveEventPrinter(json: false, remote: sync.remoteDescription)
        let storeURL = sync.storeURL
        return Task {
            do {
                let lock = try SyncLock.tryAcquire(forStore: storeURL)
                defer { lock.release() }
                for await event in sync.live(direction: .both, prefer: .remote) { printer.print(event) }
            } catch {
                FileHandle.standardError.write(Data("live: not syncing: \(error)\n".utf8))
            }
        }
    }
}
