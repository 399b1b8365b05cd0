/// An actor that owns a context and runs on the context's queue (as SwiftData's
/// `ModelActor`): its methods read and change managed objects directly, with no hop and no
/// synchronous wait, and only `Sendable` values (``ObjectID``s, snapshots, counts) leave it.
///
/// ```swift
/// actor NoteImporter: ObjectActor {
///     nonisolated let context: ObjectContext
///     init(coordinator: PersistentStoreCoordinator) {
///         context = ObjectContext(coordinator: coordinator, name: "import")
///     }
///     func add(_ texts: [String]) throws -> [ObjectID] {
///         let notes = try texts.map { text in
///             let note = try Note.insert(into: context)
///             note.text = text
///             return note
///         }
///         try context.save()
///         return notes.map(\.objectID)
///     }
/// }
/// ```
///
/// Hand objects to another context by ID (``ObjectContext/existingObject(with:)``).
public protocol ObjectActor: Actor {
    /// The context the actor owns; its queue is the actor's executor. Use a
    /// ``ObjectContext/ConcurrencyType/privateQueue`` context no other actor uses.
    nonisolated var context: ObjectContext { get }
}

extension ObjectActor {
    /// The context's queue, so the actor's code runs where its objects live.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        context.executor.asUnownedSerialExecutor()
    }
}
