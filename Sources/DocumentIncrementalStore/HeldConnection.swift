import DocumentStore

/// The datastore connection a ``DocumentIncrementalStore`` operation holds for the length of
/// its body, which every datastore call of that body goes through (asking the datastore for
/// another from inside a held one is a programming error in GRDB).
enum HeldConnection {
    /// A read snapshot (a fetch and its sub-queries).
    case reader(StoreReader)
    /// The writer, with the transaction of ``DocumentIncrementalStore/performAtomically(_:)`` open.
    case writer(StoreWriter)
}
