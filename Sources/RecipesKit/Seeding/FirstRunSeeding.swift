import Foundation
public import Logging

/// Seeds a never-initialised store the first time a program opens it: the first-run policy
/// every program built on RecipesKit shares, so the `recipes` CLI only prints what it says.
///
/// With a remote, it pulls first and imports the bundled samples only if the remote holds
/// no recipe document at all (live or deleted), then pushes; without one it seeds locally.
/// It holds the store's sync lock throughout, so a concurrent command or sync of the same
/// store waits rather than seeding twice. A remote that cannot be reached leaves the store
/// uninitialised (the next run tries again) and the caller goes on.
public struct FirstRunSeeding {
    /// The store to seed.
    public let store: RecipesStore
    /// Where the store and the remote are, and whether samples are wanted.
    public let configuration: RecipesConfiguration
    /// Diagnostics.
    public let logger: Logger
    /// Receives the lines a person should read (what was added, why seeding waits).
    public let note: @Sendable (String) -> Void

    /// A seeding run for `store`.
    public init(store: RecipesStore, configuration: RecipesConfiguration, logger: Logger,
                note: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
        self.note = note
    }

    /// Seeds the store if this is its first use; does nothing otherwise.
    /// - Throws: ``RecipesError`` when the store cannot be read or written, or
    ///   ``SampleSetError`` when the bundled sample sets are broken.
    public func run() async throws {
        let seeder = store.seeder
        if try seeder.isInitialised { return }
        guard configuration.seedsSamples else {
            try seeder.markInitialised(.samplesDisabled)
            return
        }
        let lock = try await SyncLock.acquire(forStore: store.url, timeout: .seconds(120), logger: logger)
        defer { lock.release() }
        if try seeder.isInitialised { return }
        let sets = try BundledSampleSets.loadAll()
        guard let remoteURL = configuration.remoteURL else {
            let record = try seeder.seedIfEmpty(sets)
            logger.info("first run: \(record.outcome.rawValue)", metadata: ["objects": "\(record.objectsCreated)"])
            if record.outcome == .seeded { note(Self.seededNote(record)) }
            return
        }
        let sync = try store.sync(with: remoteURL, logger: logger)
        do {
            _ = try await sync.pull()
            try sync.hooks.refresh()
        } catch {
            note("recipes: cannot check the remote \(configuration.maskedRemote ?? "") for recipes before seeding (\(error)); not seeding now, the next command tries again")
            return
        }
        let record = try seeder.seedIfEmpty(sets)
        logger.info("first run: \(record.outcome.rawValue)", metadata: ["objects": "\(record.objectsCreated)"])
        if record.outcome == .seeded {
            do {
                _ = try await sync.push()
                note(Self.seededNote(record) + "; pushed them to \(configuration.maskedRemote ?? "the remote")")
            } catch {
                note("recipes: the samples were added here but could not be pushed (\(error)); run `recipes sync` to send them")
            }
        }
    }

    /// One line telling that the store was filled with the samples, and how to avoid it.
    public static func seededNote(_ record: SeedingRecord) -> String {
        "recipes: new store: added the sample recipes (\(record.sets.joined(separator: ", ")); \(record.objectsCreated) objects; "
            + "--no-samples starts empty)"
    }
}
