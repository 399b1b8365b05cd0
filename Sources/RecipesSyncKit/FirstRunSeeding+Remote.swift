import Foundation
import Logging
public import RecipesKit
import DocumentStore
import ObjectSync
import Replication

extension FirstRunSeeding {
    /// Seeds the store if this is its first use; does nothing otherwise. With a remote, it
    /// pulls first and imports the bundled samples only if the remote holds no recipe
    /// document at all (live or deleted), then pushes them.
    /// - Throws: `RecipesError` when the store cannot be read or written, or
    ///   `SampleSetError` when the bundled sample sets are broken. A remote that cannot be
    ///   reached is not an error: the store stays unseeded and the next run tries again.
    public func run() async throws {
        if try await runWithoutRemote() { return }
        guard let remoteURL = configuration.remoteURL else { return }
        let lock = try await lockStore()
        defer { lock.release() }
        if try store.seeder.isInitialised { return }
        let sets = try BundledSampleSets.loadAll()
        let clientOptions: CouchClientOptions
        do {
            clientOptions = try configuration.clientOptions()
        } catch {
            note("recipes: cannot check the remote \(configuration.maskedRemote ?? "") for recipes before seeding (\(error)); not seeding now, the next command tries again")
            return
        }
        let sync = try store.sync(with: remoteURL, clientOptions: clientOptions, logger: logger)
        do {
            _ = try await sync.pull()
            try sync.steps.refresh()
        } catch {
            note("recipes: cannot check the remote \(configuration.maskedRemote ?? "") for recipes before seeding (\(error)); not seeding now, the next command tries again")
            return
        }
        let record = try store.seeder.seedIfEmpty(sets)
        guard record.outcome == .seeded else { return report(record) }
        do {
            _ = try await sync.push()
            report(record, pushedTo: configuration.maskedRemote ?? "the remote")
        } catch {
            report(record, announced: false)
            note("recipes: the samples were added here but could not be pushed (\(error)); run `recipes sync` to send them")
        }
    }
}
