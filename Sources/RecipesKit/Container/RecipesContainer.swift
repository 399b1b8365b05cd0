import Foundation
public import ObjectGraph

/// The recipes object graph opened over one store: the bundled model, a coordinator and a
/// main context, ready for ``RecipeBook`` and the importer.
///
/// It is the one place that knows how the pieces fit, so a program only says which store
/// to use. Contexts made by ``newContext(name:)`` share the coordinator (and its row
/// cache) with ``viewContext``.
public final class RecipesContainer: Sendable {
    /// The model the store is opened with (the current bundled version by default).
    public let model: ObjectModel
    /// The store the objects live in.
    public let store: any IncrementalStore
    /// The coordinator every context of this container uses.
    public let coordinator: PersistentStoreCoordinator
    /// The context for the program's own reads and writes.
    public let viewContext: ObjectContext

    /// Opens `store` with `model` (default: the current bundled recipes model).
    /// - Throws: ``RecipesError/modelUnavailable(path:reason:)`` when the bundled model is
    ///   missing, ``RecipesError/store(_:cause:)`` when the store refuses the model.
    public init(store: any IncrementalStore, model modelOverride: ObjectModel? = nil) throws(RecipesError) {
        let model: ObjectModel
        if let given = modelOverride { model = given } else { model = try RecipesModel.current() }
        self.model = model
        self.store = store
        do {
            coordinator = try PersistentStoreCoordinator(model: model, store: store)
        } catch {
            throw .store("cannot open the store: \(error)", cause: error)
        }
        viewContext = ObjectContext(coordinator: coordinator, name: "view")
    }

    /// A container over a fresh store that lives in memory only (tests, dry runs).
    public static func inMemory() throws(RecipesError) -> RecipesContainer {
        try RecipesContainer(store: InMemoryStore())
    }

    /// A new context on the same coordinator, for work that must not disturb
    /// ``viewContext`` (an import that may be thrown away, a background merge).
    public func newContext(name: String = "work") -> ObjectContext {
        ObjectContext(coordinator: coordinator, name: name)
    }

    /// A ``RecipeBook`` over ``viewContext``.
    public var book: RecipeBook { RecipeBook(context: viewContext) }
}
