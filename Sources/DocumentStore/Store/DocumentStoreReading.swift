/// What reads a store: the ``DocumentStore`` itself, where each call is a read of its own,
/// and the ``StoreReader`` and ``StoreWriter`` a body is handed, where every call reads
/// through the connection the body holds. The read operations (``get(id:)``, queries, the
/// changes feed, attachments, local documents…) are defined once here for all of them, so
/// code written against `some DocumentStoreReading` runs inside a snapshot or outside one.
public protocol DocumentStoreReading {
    /// The store and the connection the operations run on.
    var connection: StoreConnection { get }
}

/// What writes a store: the ``DocumentStore`` itself (each write a transaction of its own)
/// and the ``StoreWriter`` a body is handed (each write on the connection it holds). A
/// ``StoreReader`` is not one, so a write inside a read does not compile.
public protocol DocumentStoreWriting: DocumentStoreReading {}

extension DocumentStore: DocumentStoreWriting {
    /// The store's own access: each call takes a connection for itself.
    public var connection: StoreConnection { StoreConnection(store: self, held: nil) }
}

extension DocumentStoreReading {
    /// Runs `body` with every read in one snapshot: on the connection already held (a
    /// reader's, or a writer's, whose reads see its own uncommitted writes), or else on a
    /// reader snapshot taken for the body. Code that makes several reads and may run either
    /// inside or outside a held connection uses this instead of asking which it has.
    public func withOneSnapshot<T>(_ body: (StoreReader) throws -> T) throws -> T {
        let connection = self.connection
        if let held = connection.held { return try body(StoreReader(store: connection.store, db: held)) }
        return try connection.store.withSnapshot(body)
    }
}
