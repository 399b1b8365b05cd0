import ServiceLifecycle

/// A service that does nothing until the server is asked to stop (`stop()`, SIGINT or
/// SIGTERM), then marks the server as stopping and wakes every open feed, so longpoll and
/// continuous `_changes` replies finish their JSON at once and the HTTP server's graceful
/// shutdown, which waits for in-flight requests, is not held up by a client that would
/// otherwise keep a feed open for hours.
///
/// It comes after the HTTP server in the service group: a group shuts its services down in
/// reverse order, so this runs first.
struct ShutdownWatcher: Service {
    let state: ServerState

    func run() async throws {
        // Cancellation (the group failing) ends the wait as well; stopping is right then too.
        try? await gracefulShutdown()
        state.markStopping()
        for database in await state.registry.openDatabases() {
            await database.notifier.notify()
        }
    }
}
