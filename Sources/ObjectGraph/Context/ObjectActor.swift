/// An actor that owns a context (as SwiftData's `ModelActor`): its methods read and change
/// managed objects directly, and only `Sendable` values (``ObjectID``s, snapshots, counts)
/// leave it. The compiler keeps the context and its objects inside: a context is not
/// `Sendable`.
///
/// ```swift
/// actor NoteImporter: ObjectActor {
///     let context: ObjectContext
///     init(container: ObjectContainer) {
///         context = container.newContext(name: "import")
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
    /// The context the actor owns, made for it and used by no one else.
    var context: ObjectContext { get }
}

extension ObjectActor {
    /// The object with `id` in the actor's context, with its values loaded, as `type`.
    /// - Throws: ``ObjectGraphError/objectNotFound(_:)`` when the store does not have it.
    public func existing<T: EntityObject>(_ type: T.Type, id: ObjectID) throws -> T {
        try T(context.existingObject(with: id))
    }
}
