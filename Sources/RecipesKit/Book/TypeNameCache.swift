import ObjectGraph
import Synchronization

/// The recipe types' names, kept between the books of a long-running process (the web
/// server) until the store changes. Reading them is not free: a type's document also lists
/// every recipe of the type, which the parser must step over, and every list page needs
/// them. The store's change token moves with every committed write, from this process or
/// another, so a name is never served after it changed.
public final class TypeNameCache: Sendable {
    private let state = Mutex<(token: StoreChangeToken, names: [ObjectID: String])?>(nil)

    /// Makes an empty cache.
    public init() {}

    /// The names `read` gives, or those it gave for the store's current change token. A
    /// context with unsaved changes (which a fetch shows) always reads.
    func names(in context: ObjectContext, _ read: () throws -> [ObjectID: String]) throws -> [ObjectID: String] {
        guard !context.hasChanges, let token = try context.coordinator.changeToken() else { return try read() }
        if let cached = state.withLock({ $0 }), cached.token == token { return cached.names }
        let names = try read()
        state.withLock { $0 = (token, names) }
        return names
    }
}
