import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import TestSupport
import DocumentFormat

@Suite("Documents written by the original iOS app")
struct OriginalLayoutTests {
    /// Writes documents exactly as the original incremental store lays them out, including
    /// its metadata document (with Core Data's own hashes, which differ from ours).
    private func writeOriginalDatabase(_ path: String) throws {
        let store = try DocumentStore(path: path)
        func prop(_ type: String, _ destination: String? = nil) -> JSONValue {
            var p: JSONObject = ["typeName": .string(type), "versionHash": "00ff"]
            if let destination { p["destination"] = .string(destination) }
            return .object(p)
        }
        try store.create(id: "CDTISMetaData", body: ["metaData": ["NSStoreType": "CDTIncrementalStore"], "objectModel": [
            "Recipe": ["versionHash": "a1b2", "properties": [
                "name": prop("utf8"), "overview": prop("utf8"), "instructions": prop("utf8"), "prepTime": prop("utf8"),
                "thumbnailImage": prop("binary"), "type": prop("relation-to-one", "RecipeType"),
                "ingredients": prop("relation-to-many", "Ingredient"), "image": prop("relation-to-one", "Image"),
            ]],
            "Ingredient": ["versionHash": "c3d4", "properties": [
                "name": prop("utf8"), "amount": prop("utf8"), "displayOrder": prop("int16"), "recipe": prop("relation-to-one", "Recipe"),
            ]],
            "RecipeType": ["versionHash": "e5f6", "properties": ["name": prop("utf8"), "recipes": prop("relation-to-many", "Recipe")]],
            "Image": ["versionHash": "0a0b", "properties": ["image": prop("binary"), "recipe": prop("relation-to-one", "Recipe")]],
        ]])
        let dessert = "CDTIS-RecipeType-0D2C64F6-6D8A-4E4B-9C0A-111111111111"
        let main = "CDTIS-RecipeType-0D2C64F6-6D8A-4E4B-9C0A-222222222222"
        let tart = "CDTIS-Recipe-6A1E0C3E-54B5-4B0B-8D63-333333333333"
        let stew = "CDTIS-Recipe-6A1E0C3E-54B5-4B0B-8D63-444444444444"
        let ing = (0..<3).map { "CDTIS-Ingredient-9B9A8E1C-1F5E-4D16-A3E4-00000000000\($0)" }
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46])
        try store.create(id: dessert, body: ["CDTISEntityName": "RecipeType", "CDTISObjectVersion": "1", "name": "Dessert", "recipes": [.string(tart)]])
        try store.create(id: main, body: ["CDTISEntityName": "RecipeType", "CDTISObjectVersion": "3", "name": "Main", "recipes": [.string(stew)]])
        try store.create(id: tart, body: [
            "CDTISEntityName": "Recipe", "CDTISObjectVersion": "2", "name": "Tarte Tatin", "prepTime": "1 hour",
            "overview": "Upside-down apple tart", "type": .string(dessert), "ingredients": .array([.string(ing[2]), .string(ing[0]), .string(ing[1])]),
            "CDTISMeta_thumbnailImage": ["mime-type": "image/jpeg"],
        ], attachments: [.put(name: "thumbnailImage", contentType: "image/jpeg", data: jpeg)])
        try store.create(id: stew, body: ["CDTISEntityName": "Recipe", "CDTISObjectVersion": "1", "name": "Beef stew", "type": .string(main), "ingredients": []])
        for (i, id) in ing.enumerated() {
            try store.create(id: id, body: ["CDTISEntityName": "Ingredient", "CDTISObjectVersion": "1", "name": .string(["Apples", "Sugar", "Pastry"][i]),
                                            "amount": .string("\(i + 1) cups"), "displayOrder": .int(Int64(i)), "recipe": .string(tart)])
        }
        // A document of an entity this model does not have.
        try store.create(id: "CDTIS-Gadget-1", body: ["CDTISEntityName": "Gadget", "CDTISObjectVersion": "1", "name": "Dessert"])
        try store.close()
    }

    @Test func originalDocumentsFetchAsObjects() throws {
        let dir = try TemporaryDirectory()
        try writeOriginalDatabase(dir.path("original.sqlite"))
        let stack = try DocumentStack(directory: dir, file: "original.sqlite")
        let ctx = stack.context()
        let desserts = try ctx.fetch(FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "type.name == %@", "Dessert"),
                                                  sortDescriptors: [FetchSortDescriptor("name")]))
        #expect(try desserts.map { try $0.string("name") } == ["Tarte Tatin"])
        let tart = try #require(desserts.first)
        #expect(try tart.data("thumbnailImage") == Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46]))
        #expect(try tart.object(forKey: "type")?.string("name") == "Dessert")
        let ingredients = try tart.objects(forKey: "ingredients").sorted { try ($0.int("displayOrder") ?? 0) < ($1.int("displayOrder") ?? 0) }
        #expect(try ingredients.map { try $0.string("name") } == ["Apples", "Sugar", "Pastry"])
        #expect(try ingredients.map { try $0.int("displayOrder") } == [0, 1, 2])
        #expect(try ctx.count(for: FetchRequest(entityName: "Recipe")) == 2)
        #expect(try ctx.count(for: FetchRequest(entityName: "RecipeType", predicate: try ObjectPredicate(format: "name == 'Dessert'"))) == 1)
        // Editing bumps the original's counter and keeps its layout.
        try tart.setValue(.string("2 hours"), forKey: "prepTime")
        try ctx.save()
        let doc = try #require(try stack.store.documentStore.get(id: tart.objectID.referenceString))
        #expect(doc.body["CDTISObjectVersion"] == "3")
        #expect(doc.body["type"] == .string("CDTIS-RecipeType-0D2C64F6-6D8A-4E4B-9C0A-111111111111"))
        #expect(doc.attachments["thumbnailImage"] != nil)
        // The original's metadata document describes the same model, so it is adopted as it
        // is (no revision of ours); the unknown document is untouched.
        let meta = try #require(try stack.store.documentStore.get(id: "CDTISMetaData"))
        #expect(meta.rev.generation == 1 && meta.body["metaData"] != nil)
        #expect(try stack.store.documentStore.leafRevisions(id: "CDTISMetaData").count == 1)
        #expect(try stack.store.documentStore.get(id: "CDTIS-Gadget-1") != nil)
    }
}
