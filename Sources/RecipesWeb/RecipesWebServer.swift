import AsyncBridge
import Foundation
import Hummingbird
import HummingbirdTLS
public import ServerTLS
public import Logging
public import RecipesKit
import ServiceLifecycle
import Synchronization
import UnixSignals

/// `recipes web`: the recipe book as web pages, over the same store the other commands
/// use. Pages are rendered on the server and work without JavaScript; a small script of our
/// own adds live updates and the ingredient rows' buttons.
public final class RecipesWebServer: Sendable {
    private let routes: WebRoutes
    private let configuration: WebConfiguration
    private let logger: Logger
    private let running = Mutex<Running?>(nil)

    private struct Running: Sendable {
        var group: ServiceGroup
        var task: Task<Void, any Error>
    }

    /// Serves `store` as `configuration` says.
    /// - Throws: ``WebServerError/passwordRequired(host:)`` for an address beyond loopback
    ///   without a password; an error naming the missing file when the program's stylesheet
    ///   or script cannot be read.
    public init(store: RecipesStore, configuration: WebConfiguration, logger: Logger = Logger(label: "recipes.web")) throws {
        if configuration.requiresLogin, (configuration.password ?? "").isEmpty {
            throw WebServerError.passwordRequired(host: configuration.host)
        }
        self.configuration = configuration
        self.logger = logger
        let book = WebBook(store: store)
        routes = WebRoutes(book: book, configuration: configuration, assets: try WebAssets.load(),
                           feed: ChangeFeed(book: book, interval: configuration.changePollInterval))
    }

    /// Starts listening and returns the port (the one picked, for port 0).
    /// - Parameter handleSignals: stop gracefully on SIGINT and SIGTERM.
    @discardableResult
    public func start(handleSignals: Bool = false) async throws -> Int {
        let listening = OneShotContinuation<Int>()
        var services: [any Service] = []
        if let certificate = configuration.tlsCertificate, handleSignals {
            // Trapped before the server listens, so a SIGHUP never ends the process.
            services.append(CertificateReloadService(certificate: certificate, signals: await CertificateReloadService.trapHangup(),
                                                     logger: logger))
        }
        let app = Application(
            router: routes.router(),
            // HTTPS when a certificate is configured: the same HTTP/1.1 channel inside TLS.
            server: try configuration.tlsCertificate.map { try .tls(.http1(), tlsConfiguration: $0.serverConfiguration) } ?? .http1(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Recipes"),
            onServerRunning: { channel in listening.resume(returning: channel.localAddress?.port ?? 0) },
            logger: logger)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [app, routes.feed] as [any Service] + services, gracefulShutdownSignals: handleSignals ? [.sigterm, .sigint] : [], logger: logger))
        let configuration = self.configuration
        let task = Task {
            do {
                try await group.run()
                listening.resume(throwing: WebServerError.cannotListen(host: configuration.host, port: configuration.port,
                                                                       reason: "the server stopped before it was listening"))
            } catch {
                listening.resume(throwing: WebServerError.cannotListen(host: configuration.host, port: configuration.port,
                                                                       reason: String(describing: error)))
                throw error
            }
        }
        running.withLock { $0 = Running(group: group, task: task) }
        return try await listening.value()
    }

    /// Reads the TLS certificate and key again and presents them to new connections; those
    /// already open keep theirs. Does nothing without TLS.
    /// - Throws: `ServerTLSError` when the files no longer check out; the certificate in
    ///   use stays.
    public func reloadCertificate() throws(ServerTLSError) {
        try configuration.tlsCertificate?.reload()
    }

    /// Waits until the server has stopped (a signal, or ``stop()``).
    public func waitUntilStopped() async throws {
        guard let current = running.withLock({ $0 }) else { return }
        try await current.task.value
    }

    /// Stops serving: the change feed stops first, which ends the pages' event streams, then
    /// the requests in flight finish.
    public func stop() async {
        guard let current = running.withLock({ value -> Running? in
            defer { value = nil }
            return value
        }) else { return }
        await current.group.triggerGracefulShutdown()
        _ = try? await current.task.value
    }
}
