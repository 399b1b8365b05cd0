import Foundation
import Logging
import RecipesKit

/// Seeds a never-initialised store the first time a command opens it.
///
/// With a remote, it pulls first and imports the bundled samples only if the remote holds
/// no recipe document at all (live or deleted), then pushes; without one it seeds locally.
/// It holds the store's sync lock throughout, so a concurrent command or sync of the same
/// store waits rather than seeding twice. A remote that cannot be reached leaves the store
/// uninitialised (the next command tries again) and the command goes on.
struct FirstRunSeeding {
    let session: Session

    func run() async throws {
        let store = session.store
        let seeder = store.seeder
        do {
            if try seeder.isInitialised { return }
            guard session.configuration.seedsSamples else {
                try seeder.markInitialised(.samplesDisabled)
                return
            }
        } catch {
            throw CommandFailure(message: error.description)
        }
        let lock = try await SyncLock.acquire(forStore: store.url, timeout: .seconds(120), logger: session.logger)
        defer { lock.release() }
        do {
            if try seeder.isInitialised { return }
            let sets = try BundledSampleSets.loadAll()
            guard let remoteURL = session.configuration.remoteURL else {
                let record = try seeder.seedIfEmpty(sets)
                session.logger.info("first run: \(record.outcome.rawValue)", metadata: ["objects": "\(record.objectsCreated)"])
                if record.outcome == .seeded { Terminal.note(Self.seededNote(record)) }
                return
            }
            let sync = try store.sync(with: remoteURL, logger: session.logger)
            do {
                _ = try await sync.pull()
                try sync.hooks.refresh()
            } catch {
                Terminal.note("recipes: cannot reach the remote \(session.configuration.maskedRemote ?? "") to check for recipes before seeding (\(error)); not seeding now, the next command tries again")
                return
            }
            let record = try seeder.seedIfEmpty(sets)
            session.logger.info("first run: \(record.outcome.rawValue)", metadata: ["objects": "\(record.objectsCreated)"])
            if record.outcome == .seeded {
                do {
                    _ = try await sync.push()
                    Terminal.note(Self.seededNote(record) + "; pushed them to \(session.configuration.maskedRemote ?? "the remote")")
                } catch {
                    Terminal.note("recipes: the samples were added here but could not be pushed (\(error)); run `recipes sync` to send them")
                }
            }
        } catch let error as RecipesError {
            throw CommandFailure(message: error.description)
        } catch let error as SampleSetError {
            throw CommandFailure(message: "the bundled sample sets are broken: \(error.summary); reinstall the program")
        }
    }

    /// One line telling that the store was filled with the samples, and how to avoid it.
    static func seededNote(_ record: SeedingRecord) -> String {
        "recipes: new store: added the sample recipes (\(record.sets.joined(separator: ", ")); \(record.objectsCreated) objects; "
            + "--no-samples starts empty)"
    }
}
