import DocumentIncrementalStore
import DocumentStore
import Foundation
import ObjectGraph
import RecipesKit
import Synchronization

/// The store as the web app's requests use it: each request reads through a context of its
/// own (so requests run side by side and nothing read piles up between them), on the store's
/// own connections through its async access (SQLite blocks; Swift's cooperative threads
/// must not), and writes one at a time.
final class WebBook: Sendable {
    /// The store served.
    let store: RecipesStore
    /// The store's change token last caught up with.
    private let caughtUp = Mutex<StoreChangeToken?>(nil)
    /// The types' names, shared by every request's book.
    private let typeNames = TypeNameCache()
    /// Figures every book page shows (the types with their counts, a filter's count), kept
    /// for the store's change token they were read at.
    private let facts = Mutex<(token: StoreChangeToken, values: [String: any Sendable])?>(nil)
    /// Figures kept at most between two writes.
    static let rememberedLimit = 1024

    /// Serves `store`.
    init(store: RecipesStore) {
        self.store = store
    }

    /// Runs `body` with a fresh book on one of the store's reader connections (one snapshot),
    /// after catching up with writes made by other processes.
    func read<T: Sendable>(_ body: @escaping @Sendable (RecipeBook) throws -> T) async throws -> T {
        try await readAt { book, _ in try body(book) }
    }

    /// ``read(_:)``, handing `body` the store's change token read before it (for
    /// ``remembered(_:at:_:)``).
    func readAt<T: Sendable>(_ body: @escaping @Sendable (RecipeBook, StoreChangeToken?) throws -> T) async throws -> T {
        try await store.container.incrementalStore.withReader {
            let token = try self.catchUp()
            return try body(RecipeBook(context: self.store.container.newContext(name: "web"), typeNameCache: self.typeNames), token)
        }
    }

    /// Runs `body` with a fresh book on the store's writer connection (one write at a time),
    /// after catching up with writes made by other processes (so a check for a duplicate
    /// sees them).
    func write<T: Sendable>(_ body: @escaping @Sendable (RecipeBook) throws -> T) async throws -> T {
        // The writer connection is held from the checks to the save, so two posts of the
        // same form, or two edits of one recipe, are not interleaved.
        try await store.container.incrementalStore.withWriter {
            try self.catchUp()
            return try body(RecipeBook(context: self.store.container.newContext(name: "web-write"), typeNameCache: self.typeNames))
        }
    }

    /// The value `compute` gives for `key`, or the one it gave while the store has not
    /// changed since (its change token is still `token`, read before `compute` runs, so a
    /// value is never kept past a write it did not see): counts and type lists that every
    /// page of the book shows, which only a write can change.
    func remembered<T: Sendable>(_ key: String, at token: StoreChangeToken?, _ compute: () throws -> T) throws -> T {
        guard let token else { return try compute() }
        if let kept = facts.withLock({ $0?.token == token ? $0?.values[key] : nil }) as? T { return kept }
        let value = try compute()
        facts.withLock { facts in
            // A new token, or many different searches since the last write: start afresh.
            if facts?.token != token || (facts?.values.count ?? 0) >= Self.rememberedLimit { facts = (token, [:]) }
            facts?.values[key] = value
        }
        return value
    }

    /// Catches up (``catchUp()``) on one of the store's reader connections.
    func caughtUpToken() async throws -> StoreChangeToken? {
        try await store.container.incrementalStore.withReader { try self.catchUp() }
    }

    /// Lets the store take in what other processes wrote since the last look, when its
    /// change token moved; returns the token. Cheap when nothing moved (one read).
    @discardableResult
    func catchUp() throws -> StoreChangeToken? {
        let coordinator = store.container.coordinator
        let token = try coordinator.changeToken()
        let moved = caughtUp.withLock { last -> Bool in
            defer { last = token }
            return last != token
        }
        if moved { try coordinator.processExternalChanges() }
        return token
    }
}
