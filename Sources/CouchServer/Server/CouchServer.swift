import UnixSignals
import AsyncBridge
import Foundation
import Hummingbird
import HummingbirdTLS
public import ServerTLS
public import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// CouchDB's HTTP API over local DocumentStore files, one per database in a data directory:
/// enough of it for CouchDB's replicator, PouchDB and this package's replicator to sync.
///
/// Start it in-process (tests use port 0 and read the bound port back) or from `recipes serve`.
public final class CouchServer: Sendable {
    /// The configuration the server runs with.
    public let configuration: CouchServerConfiguration
    private let logger: Logger
    private let state: ServerState
    private let running = Mutex<Running?>(nil)

    private struct Running: Sendable {
        var group: ServiceGroup
        var task: Task<Void, any Error>
        var port: Int
    }

    /// Makes a server; nothing listens until `start()`.
    public init(configuration: CouchServerConfiguration, logger: Logger = Logger(label: "recipes.serve")) {
        self.configuration = configuration
        self.logger = logger
        self.state = ServerState(configuration: configuration)
    }

    /// The port the server listens on, once started.
    public var port: Int? { running.withLock { $0?.port } }

    /// Binds and starts serving; returns the bound port (useful with port 0).
    ///
    /// With `handleSignals`, SIGINT and SIGTERM stop the server gracefully (for the CLI).
    @discardableResult
    public func start(handleSignals: Bool = false) async throws -> Int {
        let listening = OneShotContinuation<Int>()
        let idle = configuration.idleTimeout.components
        let idleTimeout: TimeAmount = .nanoseconds(idle.seconds * 1_000_000_000 + idle.attoseconds / 1_000_000_000)
        var services: [any Service] = []
        if let certificate = configuration.tlsCertificate, handleSignals {
            // Trapped before the server listens, so a SIGHUP never ends the process.
            services.append(CertificateReloadService(certificate: certificate, signals: await CertificateReloadService.trapHangup(),
                                                     logger: logger))
        }
        let app = Application(
            responder: CouchResponder(state: state, logger: logger),
            // HTTPS when a certificate is configured: the same HTTP/1.1 channel inside TLS.
            server: try configuration.tlsCertificate.map {
                try .tls(.http1(configuration: .init(idleTimeout: idleTimeout)), tlsConfiguration: $0.serverConfiguration)
            } ?? .http1(configuration: .init(idleTimeout: idleTimeout)),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                 serverName: "Recipes-CouchServer"),
            onServerRunning: { [state] channel in
                let port = channel.localAddress?.port ?? 0
                state.listeningPort = port
                listening.resume(returning: port)
            },
            logger: logger
        )
        var groupConfiguration = ServiceGroupConfiguration(
            // A group stops its services in reverse order: the replications first, then
            // the feeds, then the HTTP server, and last the writer of `_global_changes`, so
            // the events of the last requests are written.
            services: [GlobalChangesService(queue: state.databaseEvents, registry: state.registry, logger: logger),
                       app, ShutdownWatcher(state: state),
                       ReplicationService(scheduler: state.replications,
                                          context: .init(registry: state.registry, configuration: configuration, logger: logger))
                      ] as [any Service] + services,
            gracefulShutdownSignals: handleSignals ? [.sigterm, .sigint] : [],
            logger: logger)
        // Past the grace period the requests still in flight (a body that never comes) are
        // cancelled and their connections closed, so a shutdown always ends.
        groupConfiguration.maximumGracefulShutdownDuration = configuration.shutdownGracePeriod
        let group = ServiceGroup(configuration: groupConfiguration)
        let task = Task {
            do {
                try await group.run()
                listening.resume(throwing: CouchServerError.stoppedBeforeListening)
            } catch {
                listening.resume(throwing: CouchServerError.cannotListen(String(describing: error)))
                throw error
            }
        }
        running.withLock { $0 = Running(group: group, task: task, port: 0) }
        let port = try await listening.value()
        running.withLock { $0?.port = port }
        return port
    }

    /// Reads the TLS certificate and key again and presents them to new connections; those
    /// already open keep theirs. Does nothing without TLS.
    /// - Throws: `ServerTLSError` when the files no longer check out; the certificate in
    ///   use stays.
    public func reloadCertificate() throws(ServerTLSError) {
        try configuration.tlsCertificate?.reload()
    }

    /// Waits until the server stops (after `stop()` or a signal), then closes the stores.
    public func waitUntilStopped() async throws {
        guard let task = running.withLock({ $0?.task }) else { return }
        _ = try? await task.value
        await state.registry.closeAll()
    }

    /// Stops listening, lets in-flight requests finish (longpoll feeds answer at once) and
    /// closes every store.
    public func stop() async {
        guard let current = running.withLock({ value -> Running? in
            defer { value = nil }
            return value
        }) else { return }
        state.markStopping()
        await current.group.triggerGracefulShutdown()
        _ = try? await current.task.value
        await state.registry.closeAll()
    }
}

/// Why a `CouchServer` could not start.
public enum CouchServerError: Error, Sendable, CustomStringConvertible {
    /// Binding failed (address in use, not permitted, bad host).
    case cannotListen(String)
    /// The server shut down before it was listening.
    case stoppedBeforeListening
    /// An account could not be written to `_users` (the reason says why: a name or role
    /// CouchDB's rules refuse, or the store failed).
    case accountRefused(String)

    /// A sentence naming the cause and the fix.
    public var description: String {
        switch self {
        case .cannotListen(let reason):
            return "Cannot listen: \(reason). Pick another --port (or 0 for any free port) or check --bind."
        case .stoppedBeforeListening:
            return "The server stopped before it was listening. Check the address and try again."
        case .accountRefused(let reason):
            return "The account was not saved: \(reason)"
        }
    }
}
