/// A server a test starts and must stop: an in-process `CouchServer`, a spawned
/// `recipes serve` process.
public protocol StoppableServer: Sendable {
    /// Stops the server; returns once it has stopped.
    func stop() async
}

/// Runs `body` with a server just started, and always awaits the server's `stop()` before
/// returning, whether `body` returned or threw. The start is written as the argument:
///
///     try await withServer(TestServer.start(anonymous: .reads)) { server in … }
public func withServer<Server: StoppableServer, T>(
    isolation: isolated (any Actor)? = #isolation,
    _ server: Server,
    _ body: (Server) async throws -> T
) async throws -> T {
    let result: T
    do {
        result = try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
    return result
}

/// `withServer` for a start that returns the server together with something else (what it
/// was seeded with, its data directory): `body` gets both.
public func withServer<Server: StoppableServer, Extra, T>(
    isolation: isolated (any Actor)? = #isolation,
    _ started: (Server, Extra),
    _ body: (Server, Extra) async throws -> T
) async throws -> T {
    let (server, extra) = started
    return try await withServer(server) { server in try await body(server, extra) }
}
