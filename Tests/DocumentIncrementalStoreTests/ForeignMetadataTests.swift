import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import TestSupport
import DocumentFormat

/// A `CDTISMetaData` document in the shape the original incremental store writes it (as the
/// recorded CouchDB 3.4.3 traffic in `Tests/Fixtures/couchdb-3.4.3` holds it): a `metaData`
/// member with the store's Core Data metadata and an `objectModel` with Core Data's hashes.
enum OriginalMetadata {
    /// The revision the original app's document has on its CouchDB database.
    static let rev = RevisionID("1-b5a2aab9497c27997c8e3391e235275d")!

    /// The body, describing the current recipes model; `change` edits the `objectModel`.
    static func body(_ change: (inout JSONObject) -> Void = { _ in }) -> JSONObject {
        func property(_ type: String, _ destination: String? = nil) -> JSONValue {
            var p: JSONObject = ["typeName": .string(type), "versionHash": "cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd"]
            if let destination { p["destination"] = .string(destination) }
            return .object(p)
        }
        let hash: JSONValue = "abababababababababababababababababababababababababababababababab"
        var model: JSONObject = [
            "Recipe": ["versionHash": hash, "properties": [
                "name": property("utf8"), "overview": property("utf8"), "instructions": property("utf8"), "prepTime": property("utf8"),
                "thumbnailImage": property("binary"), "type": property("relation-to-one", "RecipeType"),
                "ingredients": property("relation-to-many", "Ingredient"), "image": property("relation-to-one", "Image"),
            ]],
            "Ingredient": ["versionHash": hash, "properties": [
                "name": property("utf8"), "amount": property("utf8"), "displayOrder": property("int16"),
                "recipe": property("relation-to-one", "Recipe"),
            ]],
            "RecipeType": ["versionHash": hash, "properties": ["name": property("utf8"), "recipes": property("relation-to-many", "Recipe")]],
            "Image": ["versionHash": hash, "properties": ["image": property("binary"), "recipe": property("relation-to-one", "Recipe")]],
        ]
        change(&model)
        return [
            "metaData": [
                "NSStoreType": "CDTIncrementalStore",
                "NSStoreUUID": "5E0C6A43-3F4B-4C2B-9B1E-0D1B2C3D4E5F",
                "NSStoreModelVersionHashes": ["Recipe": "q6urq6ur", "Ingredient": "q6urq6ur", "RecipeType": "q6urq6ur", "Image": "q6urq6ur"],
            ],
            "objectModel": .object(model),
        ]
    }

    /// The document as a replicated revision, as a pull from the original app's database brings it.
    static func revision(_ body: JSONObject = body()) -> ReplicatedRevision {
        ReplicatedRevision(id: "CDTISMetaData", rev: rev, body: body)
    }
}

@Suite("A CDTISMetaData document written by another app")
struct ForeignMetadataTests {
    private func live(_ store: DocumentStore) throws -> [DocumentRevision] {
        try store.leafRevisions(id: "CDTISMetaData").filter { !$0.deleted }
    }

    @Test("a compatible document is adopted: no revision of ours at open, save or reopen")
    func compatibleIsAdopted() throws {
        let dir = try TemporaryDirectory()
        do {
            let store = try DocumentStore(path: dir.path("store.sqlite"))
            try store.insertRevisions([OriginalMetadata.revision()])
            try store.close()
        }
        do {
            let stack = try DocumentStack(directory: dir)
            let ctx = stack.context()
            try ctx.insert("RecipeType").setValue(.string("Soup"), forKey: "name")
            try ctx.save()
            #expect(try live(stack.store.documentStore).map(\.rev) == [OriginalMetadata.rev])
        }
        let reopened = try DocumentStack(directory: dir)
        let before = try reopened.store.documentStore.lastSequence
        #expect(try live(reopened.store.documentStore).map(\.rev) == [OriginalMetadata.rev])
        #expect(try reopened.store.documentStore.get(id: "CDTISMetaData")?.body == OriginalMetadata.body())
        #expect(try reopened.store.documentStore.lastSequence == before)
    }

    @Test("an incompatible document stops the open with one line naming the first difference")
    func incompatibleIsRefused() throws {
        let dir = try TemporaryDirectory()
        let changed = OriginalMetadata.body { model in
            var recipe = model["Recipe"]!.objectValue!
            var properties = recipe["properties"]!.objectValue!
            properties["prepTime"] = ["typeName": "int32", "versionHash": "00"]
            recipe["properties"] = .object(properties)
            model["Recipe"] = .object(recipe)
            model["Image"] = nil
        }
        do {
            let store = try DocumentStore(path: dir.path("store.sqlite"))
            try store.insertRevisions([OriginalMetadata.revision(changed)])
            try store.close()
        }
        let expected = DocumentIncrementalStoreError.foreignModel(
            ModelDifference(entity: "Image", property: nil, reason: "in the model, but not in the stored model"))
        #expect(throws: expected) { try DocumentStack(directory: dir) }
        #expect(!expected.description.contains("\n") && expected.description.contains("entity Image"))

        let typeChanged = OriginalMetadata.body { model in
            var recipe = model["Recipe"]!.objectValue!
            var properties = recipe["properties"]!.objectValue!
            properties["prepTime"] = ["typeName": "int32", "versionHash": "00"]
            recipe["properties"] = .object(properties)
            model["Recipe"] = .object(recipe)
        }
        let other = try TemporaryDirectory()
        do {
            let store = try DocumentStore(path: other.path("store.sqlite"))
            try store.insertRevisions([OriginalMetadata.revision(typeChanged)])
            try store.close()
        }
        #expect(throws: DocumentIncrementalStoreError.foreignModel(ModelDifference(
            entity: "Recipe", property: "prepTime", reason: "stored as int32 but the model declares utf8"))) {
            try DocumentStack(directory: other)
        }
        // Nothing was written: the other app's document is still the only revision.
        let store = try DocumentStore(path: other.path("store.sqlite"))
        #expect(try live(store).map(\.rev) == [OriginalMetadata.rev])
    }

    @Test("a pull into a store that never saved leaves only the other app's document")
    func pulledIntoFreshStore() throws {
        let stack = try DocumentStack()
        #expect(try stack.store.documentStore.get(id: "CDTISMetaData") == nil)
        try stack.store.documentStore.insertRevisions([OriginalMetadata.revision()])
        try stack.store.processExternalChanges()
        let ctx = stack.context()
        try ctx.insert("RecipeType").setValue(.string("Soup"), forKey: "name")
        try ctx.save()
        #expect(try live(stack.store.documentStore).map(\.rev) == [OriginalMetadata.rev])
    }

    @Test("our own document loses to the other app's after a pull: no conflict is left")
    func ownRevisionGivesWay() throws {
        let stack = try DocumentStack()
        let ctx = stack.context()
        try ctx.insert("RecipeType").setValue(.string("Soup"), forKey: "name")
        try ctx.save()
        let ours = try #require(try stack.store.documentStore.get(id: "CDTISMetaData"))
        #expect(ours.body == ModelMetadataDocument.body(for: TestSupport.recipesModel))
        try stack.store.documentStore.insertRevisions([OriginalMetadata.revision()])
        #expect(try live(stack.store.documentStore).count == 2)
        try stack.store.resolveReplicaConflicts(policy: .winnerTrumps)
        #expect(try live(stack.store.documentStore).map(\.rev) == [OriginalMetadata.rev])
        #expect(try stack.store.documentStore.conflicts(id: "CDTISMetaData").isEmpty)
    }
}
