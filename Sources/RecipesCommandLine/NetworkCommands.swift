package import RecipesKit

/// What reaches other machines: `sync`, `serve`, `web`, and the first-run seeding of a store
/// whose remote must be asked first. The program that links the network stack
/// (`recipes-network`) runs them; `recipes`, which browses and edits, hands them over to it
/// (``NetworkHandoff``), so its own start never loads or scans the HTTP client and server.
package protocol NetworkCommands: Sendable {
    /// Runs `recipes sync`.
    func sync(_ command: SyncCommand) async throws
    /// Runs `recipes serve`.
    func serve(_ command: ServeCommand) async throws
    /// Runs `recipes web`.
    func web(_ command: WebCommand) async throws
    /// Seeds a never-initialised store with a remote: samples only when the remote has no
    /// recipes, then pushed to it.
    func seedWithRemote(_ seeding: FirstRunSeeding) async throws
}
