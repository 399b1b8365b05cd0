import RecipesCommandLine
import RecipesKit
import RecipesSyncKit

/// Runs the commands that reach other machines in this process, which links the sync engine,
/// the CouchDB-compatible server and the web server.
struct NetworkCommandRunner: NetworkCommands {
    func sync(_ command: SyncCommand) async throws { try await command.perform() }
    func serve(_ command: ServeCommand) async throws { try await command.perform() }
    func web(_ command: WebCommand) async throws { try await command.perform() }
    func seedWithRemote(_ seeding: FirstRunSeeding) async throws { try await seeding.run() }
}
