import Foundation
public import Logging
package import DocumentStore

/// Seeds a never-initialised store the first time a program opens it: the first-run policy
/// every program built on RecipesKit shares, so the `recipes` CLI only prints what it says.
///
/// Without a remote it seeds locally (``runWithoutRemote()``). With one, RecipesSyncKit's
/// `run()` pulls first and imports the bundled samples only if the remote holds no recipe
/// document at all (live or deleted), then pushes. Either holds the store's sync lock
/// throughout, so a concurrent command or sync of the same store waits rather than seeding
/// twice. A remote that cannot be reached leaves the store uninitialised (the next run tries
/// again) and the caller goes on.
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

    /// Seeds the store if this is its first use and no remote has to be asked first; does
    /// nothing when the store was seeded (or chose not to be) already.
    /// - Returns: `false` when a remote is configured and the store still waits for its
    ///   seeding: the remote must be checked for recipes first, which `run()` in
    ///   RecipesSyncKit does (the module that links the HTTP client); `true` otherwise.
    /// - Throws: ``RecipesError`` when the store cannot be read or written, or
    ///   ``SampleSetError`` when the bundled sample sets are broken.
    public func runWithoutRemote() async throws -> Bool {
        let seeder = store.seeder
        if try seeder.isInitialised { return true }
        guard configuration.seedsSamples else {
            try seeder.markInitialised(.samplesDisabled)
            return true
        }
        guard configuration.remoteURL == nil else { return false }
        let lock = try await lockStore()
        defer { lock.release() }
        if try seeder.isInitialised { return true }
        let record = try seeder.seedIfEmpty(try BundledSampleSets.loadAll())
        report(record)
        return true
    }

    /// Takes the store's sync lock, so a concurrent command or sync of the same store waits
    /// rather than seeding twice.
    package func lockStore() async throws -> SyncLock {
        try await SyncLock.acquire(forStore: store.url, timeout: .seconds(120), logger: logger)
    }

    /// Logs a seeding's outcome and, unless `announced` is false, tells a person when
    /// samples were added (and to which remote they were pushed).
    package func report(_ record: SeedingRecord, pushedTo remote: String? = nil, announced: Bool = true) {
        logger.info("first run: \(record.outcome.rawValue)", metadata: ["objects": "\(record.objectsCreated)"])
        guard record.outcome == .seeded, announced else { return }
        note(Self.seededNote(record) + (remote.map { "; pushed them to \($0)" } ?? ""))
    }

    /// One line telling that the store was filled with the samples, and how to avoid it.
    public static func seededNote(_ record: SeedingRecord) -> String {
        "recipes: new store: added the sample recipes (\(record.sets.joined(separator: ", ")); \(record.objectsCreated) objects; "
            + "--no-samples starts empty)"
    }
}
