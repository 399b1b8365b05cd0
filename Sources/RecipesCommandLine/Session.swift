package import Foundation
package import Logging
package import RecipesKit
import Synchronization

/// What a command needs once its options are read: the resolved configuration and the
/// opened store, seeded on first use.
package struct Session {
    /// How a command relates to first-run seeding.
    package enum Purpose {
        /// A command that reads or changes recipes: seeds a never-initialised store.
        case normal
        /// A command that only reads (`list` without `--watch`, `show`, `types`, `status`): a store that is
        /// ready (seeded, current schema and model) is opened for reading only, so the command
        /// writes nothing and skips the writer's set-up; any other is opened as for `.normal`.
        case browsing
        /// `import`: never seeds (the user brings their own data).
        case importing
    }

    /// Where the store and the remote are.
    package let configuration: RecipesConfiguration
    /// The opened store.
    package let store: RecipesStore
    /// Diagnostics on stderr (`--verbose` shows them).
    package let logger: Logger

    /// Whether a command gives the store the password for encrypted notes.
    package enum Unlocking {
        /// Never (commands that do not read or write notes: the key is not derived).
        case never
        /// When a password file is configured.
        case ifConfigured
        /// Always: the command fails without a password file.
        case required
    }

    /// Resolves the configuration, opens the store, gives it the password when `unlocking`
    /// says so (a wrong one fails here, before anything is written) and seeds it if this is
    /// its first use.
    ///
    /// A write waits at most ``interactiveLockWait`` for another process's write to finish
    /// (so a command a person waits on answers within a second when an import holds the
    /// store), unless `waitsForWriters` (a sync, whose batches queue behind a command's).
    package static func open(_ options: GlobalOptions, purpose: Purpose = .normal, unlocking: Unlocking = .never,
                     waitsForWriters: Bool = false) async throws -> Session {
        let configuration: RecipesConfiguration
        do {
            configuration = try RecipesConfiguration.resolve(
                options: options.configurationOptions, environment: RecipesConfiguration.processEnvironment())
        } catch {
            throw CommandFailure(message: error.description)
        }
        var logger = Logger(label: "recipes") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = options.verbose ? .info : .warning
        var passwordFile: URL?
        if unlocking != .never {
            do { passwordFile = try configuration.checkedPasswordFileURL() } catch {
                throw CommandFailure(message: "\(error)")
            }
        }
        let store: RecipesStore
        let openedForReading: Bool
        // Unlocking may write (a store's first password records its key check), so a command
        // given a password opens for writing.
        if purpose == .browsing, passwordFile == nil, unlocking != .required, let ready = readyForReading(configuration.storeURL) {
            (store, openedForReading) = (ready, true)
        } else {
            do {
                store = waitsForWriters ? try RecipesStore(url: configuration.storeURL)
                    : try RecipesStore(url: configuration.storeURL, lockWait: interactiveLockWait)
            } catch where error.isStoreLocked {
                throw CommandFailure(message: lockedMessage(path: configuration.storeURL.path))
            } catch {
                throw CommandFailure(message: error.description)
            }
            openedForReading = false
        }
        if unlocking != .never {
            if let file = passwordFile {
                try unlock(store, passwordFile: file)
            } else if unlocking == .required, let typed = Terminal.promptPassword("Password for the encrypted notes: ") {
                do { try store.unlock(password: typed) } catch { throw CommandFailure(message: "\(error)") }
            } else if unlocking == .required {
                throw CommandFailure(message: "the notes are encrypted and no password was given; give --password-file FILE, set RECIPES_PASSWORD_FILE, or add \"passwordFile\" to \(configuration.configFileURL.path)")
            }
        }
        let session = Session(configuration: configuration, store: store, logger: logger)
        openStores.withLock { $0.append(store) }
        // A store opened for reading was found seeded already.
        if purpose != .importing && !openedForReading {
            try await session.seedIfNeeded()
        }
        return session
    }

    /// The store at `url` opened for reading only, when it can be read as it is: the file
    /// exists with the current schema and model, and has been seeded (or chose not to be).
    /// `nil` when any of these needs a write first, or opening for reading fails for any
    /// other reason: the caller then opens the store for writing, which says what is wrong.
    private static func readyForReading(_ url: URL) -> RecipesStore? {
        guard let store = try? RecipesStore(url: url, lockWait: interactiveLockWait, readOnly: true),
              (try? store.seeder.isInitialised) == true else { return nil }
        return store
    }

    /// Every store a command opened, kept until the process exits: a command's objects are
    /// released by the exit rather than one by one, since tearing down the object graph of
    /// 20,000 listed recipes costs more than printing them. Every write has committed (and is
    /// on disk) before the command returns; SQLite needs no close to keep it.
    private static let openStores = Mutex<[RecipesStore]>([])

    /// Seconds a command's write waits for another process's write before it gives up.
    package static let interactiveLockWait = 0.75

    /// The one line for a write that gave up waiting for another process's write.
    package static func lockedMessage(path: String?) -> String {
        "the store\(path.map { " " + $0 } ?? "") is locked by another process writing to it (a running import or sync); "
            + "nothing was changed: run the command again when that has finished"
    }

    /// The paths of the stores this command opened, in order.
    package static var openedStorePaths: [String] { openStores.withLock { $0.map(\.url.path) } }

    /// Reads a password file's first line (without its line end).
    package static func readPassword(_ url: URL) throws -> String {
        do {
            return try PasswordFile.read(url)
        } catch {
            throw CommandFailure(message: error.description)
        }
    }

    /// Unlocks `store` with the password in `passwordFile`; a wrong password fails with the
    /// one line `wrong password for the encrypted notes`.
    package static func unlock(_ store: RecipesStore, passwordFile: URL) throws {
        let password = try readPassword(passwordFile)
        do { try store.unlock(password: password) } catch {
            throw CommandFailure(message: "\(error)")
        }
    }

    /// The recipe book of the store.
    package var book: RecipeBook { store.container.newBook() }

    /// First-run seeding (``FirstRunSeeding`` in RecipesKit), its notes on stderr; a store
    /// with a remote is seeded by the program that links the sync engine (``NetworkCommands``).
    private func seedIfNeeded() async throws {
        do {
            let seeding = FirstRunSeeding(store: store, configuration: configuration, logger: logger) { Terminal.note($0) }
            if try await !seeding.runWithoutRemote() {
                try await RecipesCommand.network.seedWithRemote(seeding)
            }
        } catch let error as RecipesError {
            throw CommandFailure(message: error.description)
        } catch let error as SampleSetError {
            throw CommandFailure(message: "the bundled sample sets are broken: \(error.summary); reinstall the program")
        }
    }
}
