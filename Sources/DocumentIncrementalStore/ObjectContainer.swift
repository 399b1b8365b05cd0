public import ObjectGraph
public import Foundation
package import DocumentStore

/// An object graph for any model, opened over a SQLite document store, ready to use and to
/// sync: the one object an app keeps (as SwiftData's `ModelContainer`).
///
/// It builds the model from its compiled definition (the `<Model>ModelDefinition` type that
/// `EntityCodegenPlugin` generates), opens or creates the store file, and offers a
/// ``mainContext`` for main-actor code and ``newContext(name:)`` for every other place that
/// works with objects (a function's own context, an `ObjectActor`'s); every context shares
/// one coordinator and its row cache. The container is `Sendable`; contexts are not, so each
/// stays where it was made. ``inMemory(for:)``
/// gives the same thing with a store that lives in memory only, so an app's tests of
/// fetches, indexes and sync need no files. ObjectSync's `sync(with:options:)` syncs it with
/// CouchDB, Cloudant, `recipes serve` or another store file.
public final class ObjectContainer: Sendable {
    /// The model the store is opened with.
    public let model: ObjectModel
    /// The store file, or `nil` for an in-memory container.
    public let url: URL?
    /// The coordinator every context of this container uses.
    public let coordinator: PersistentStoreCoordinator
    /// The context of main-actor code (a user interface), used on the main actor only; it
    /// takes in other contexts' saves and changes underneath as they arrive
    /// (`ObjectContext.forMainActor(coordinator:name:)`). Made on first use, so a program
    /// that never uses it never has the main actor told of other contexts' saves.
    @MainActor public var mainContext: ObjectContext {
        if let context = mainSlot.context { return context }
        let made = ObjectContext.forMainActor(coordinator: coordinator)
        mainSlot.context = made
        return made
    }
    private let mainSlot = MainContextSlot()
    /// The document datastore underneath (for replication and maintenance).
    package let documentStore: DocumentStore
    /// The incremental store that maps objects to documents.
    package let incrementalStore: DocumentIncrementalStore

    /// Opens (or creates) the store at `url` for the model `definition` describes.
    /// - Throws: ``ObjectContainerError`` naming the file and the cause: a folder that cannot
    ///   be made, a file that is not a store, a store written with another model.
    public convenience init(for definition: (some CompiledModel).Type, url: URL) throws(ObjectContainerError) {
        try self.init(model: Self.build(definition), url: url)
    }

    /// Opens (or creates) the store at `url` with `model`.
    /// - Throws: ``ObjectContainerError`` as ``init(for:url:)`` does.
    public convenience init(model: ObjectModel, url: URL) throws(ObjectContainerError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .cannotOpen(path: url.path, cause: error)
        }
        let store: DocumentStore
        do {
            store = try DocumentStore(url: url)
        } catch {
            throw .cannotOpen(path: url.path, cause: error)
        }
        try self.init(model: model, url: url, documentStore: store)
    }

    /// A container whose store lives in memory only and is gone when the container is:
    /// tests and previews, with the same fetches, indexes and sync as a file.
    public static func inMemory(for definition: (some CompiledModel).Type) throws(ObjectContainerError) -> ObjectContainer {
        try inMemory(model: build(definition))
    }

    /// ``inMemory(for:)`` with a model built elsewhere.
    public static func inMemory(model: ObjectModel) throws(ObjectContainerError) -> ObjectContainer {
        let store: DocumentStore
        do {
            store = try DocumentStore.inMemory()
        } catch {
            throw .cannotOpen(path: ":memory:", cause: error)
        }
        return try ObjectContainer(model: model, url: nil, documentStore: store)
    }

    /// A container over a datastore opened elsewhere (with options of the caller's).
    package init(model: ObjectModel, url: URL?, documentStore: DocumentStore) throws(ObjectContainerError) {
        self.model = model
        self.url = url
        self.documentStore = documentStore
        incrementalStore = DocumentIncrementalStore(documentStore: documentStore)
        do {
            coordinator = try PersistentStoreCoordinator(model: model, store: incrementalStore)
        } catch {
            throw .cannotOpen(path: url?.path ?? ":memory:", cause: error)
        }
    }

    private static func build(_ definition: (some CompiledModel).Type) throws(ObjectContainerError) -> ObjectModel {
        do {
            return try definition.model()
        } catch {
            throw .invalidModel(path: definition.sourcePath, cause: error)
        }
    }

    /// A new context on the same coordinator, for the isolation domain that makes it (a
    /// function, a task, a request) or the `ObjectActor` it is handed to.
    public func newContext(name: String = "work") -> ObjectContext {
        ObjectContext(coordinator: coordinator, name: name)
    }
}

/// Where a container keeps its main-actor context (main-actor state in a `Sendable` container).
@MainActor
private final class MainContextSlot {
    var context: ObjectContext?
    nonisolated init() {}
}
