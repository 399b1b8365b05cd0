import ArgumentParser
import DocumentStore
import Foundation
import Logging
import RecipesCommandLine
import RecipesKit
import RecipesSyncKit
import RecipesWeb
import Replication

extension WebCommand {
    /// Opens the store, starts the server (and the live sync), and runs until a signal.
    func perform() async throws {
        try await reportingFailures {
            let session = try await Session.open(global, unlocking: .ifConfigured)
            var password: String?
            if let file = try? session.configuration.checkedPasswordFileURL() {
                password = try Session.readPassword(file)
            }
            // The certificate and key are read and checked before anything listens.
            let certificate = try ServingTLS.certificate(certificate: tls.tlsCert, key: tls.tlsKey, configuration: session.configuration)
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
                                              configuration: WebConfiguration(host: bind, port: port, password: password,
                                                                              tlsCertificate: certificate),
                                              logger: logger)
            } catch {
                throw CommandFailure(message: "\(error)")
            }
            ServingTLS.warnIfPlaintext(program: "web", bind: bind, certificate: certificate)
            let boundPort: Int
            do {
                boundPort = try await server.start(handleSignals: true)
            } catch {
                throw CommandFailure(message: "\(error)")
            }
            let sync = liveSync.map(Self.startLiveSync)
            let host = bind.contains(":") ? "[\(bind)]" : bind
            // Written straight to the file descriptor: scripts wait for this line through a pipe.
            FileHandle.standardOutput.write(Data("listening on \(ServingTLS.scheme(certificate))://\(host):\(boundPort)\n".utf8))
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
        var clientOptions: CouchClientOptions
        do {
            clientOptions = try session.configuration.clientOptions()
        } catch {
            throw CommandFailure(message: "\(error)")
        }
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
