import InteropSupport
import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import TestSupport
import DocumentFormat

/// Paths, models and temporary stores for the DocumentIncrementalStore tests.
enum TestSupport {
    /// The package root, found from this file's path.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Both recipes model versions.
    static let recipesVersions: ModelVersionSet = {
        do { return try ModelVersionSet.load(contentsOf: packageRoot.appendingPathComponent("Schemas/Recipes.xcdatamodeld")) }
        catch { preconditionFailure("recipes model failed to load: \(error)") }
    }()

    /// The current recipes model.
    static var recipesModel: ObjectModel { recipesVersions.current }

    /// Copies every leaf of `id` (with its history and attachments) from one store to another,
    /// as a replicator would.
    static func replicate(_ id: String, from source: DocumentStore, to target: DocumentStore) throws {
        try DocumentCopy.copy(id, from: source, to: target)
    }

    /// A model from entity XML.
    static func model(_ body: String, name: String = "Test") -> ObjectModel {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n" + body + "\n</model>\n"
        do { return try ObjectModel.load(xml: Data(xml.utf8), name: name, path: name + ".xcdatamodel/contents") }
        catch { preconditionFailure("test model failed to load: \(error)") }
    }

    /// One entity with every attribute type, and a to-many ordered relationship.
    static let allTypesModel = model("""
        <entity name="Thing">
            <attribute name="s" optional="YES" attributeType="String"/>
            <attribute name="i16" optional="YES" attributeType="Integer 16"/>
            <attribute name="i32" optional="YES" attributeType="Integer 32"/>
            <attribute name="i64" optional="YES" attributeType="Integer 64"/>
            <attribute name="d" optional="YES" attributeType="Double"/>
            <attribute name="f" optional="YES" attributeType="Float"/>
            <attribute name="dec" optional="YES" attributeType="Decimal"/>
            <attribute name="b" optional="YES" attributeType="Boolean"/>
            <attribute name="date" optional="YES" attributeType="Date"/>
            <attribute name="bin" optional="YES" attributeType="Binary"/>
            <attribute name="xf" optional="YES" attributeType="Transformable"/>
            <attribute name="u" optional="YES" attributeType="UUID"/>
            <attribute name="url" optional="YES" attributeType="URI"/>
            <relationship name="parts" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Part" inverseName="thing" inverseEntity="Part"/>
        </entity>
        <entity name="Part">
            <attribute name="n" optional="YES" attributeType="Integer 32"/>
            <relationship name="thing" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Thing" inverseName="parts" inverseEntity="Thing"/>
        </entity>
        """)
}

/// A document-backed coordinator on a fresh file.
struct DocumentStack {
    let directory: TemporaryDirectory
    let store: DocumentIncrementalStore
    let coordinator: PersistentStoreCoordinator

    init(model: ObjectModel = TestSupport.recipesModel, directory: TemporaryDirectory? = nil, file: String = "store.sqlite") throws {
        let directory = try directory ?? TemporaryDirectory()
        self.directory = directory
        store = try DocumentIncrementalStore(path: directory.path(file))
        coordinator = try PersistentStoreCoordinator(model: model, store: store)
    }

    func context(_ name: String = "ctx") -> ObjectContext { ObjectContext(coordinator: coordinator, name: name) }
}
