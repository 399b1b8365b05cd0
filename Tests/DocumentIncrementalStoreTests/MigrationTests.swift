import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import TestSupport
import DocumentFormat

@Suite("Opening stores written with older models")
struct MigrationTests {
    @Test func recipesVersion1StoreOpensWithVersion2() throws {
        let v1 = try #require(TestSupport.recipesVersions.versions["Recipes"])
        let v2 = try #require(TestSupport.recipesVersions.versions["Recipes 2"])
        #expect(v1.entity(named: "Recipe")?.attribute(named: "createdAt") == nil)
        #expect(v2.entity(named: "Recipe")?.attribute(named: "createdAt") != nil)
        let dir = try TemporaryDirectory()
        let id: ObjectID
        let firstMeta: RevisionID
        do {
            let stack = try DocumentStack(model: v1, directory: dir)
            let ctx = stack.context()
            let r = try ctx.insert("Recipe")
            try r.setValue(.string("Old recipe"), forKey: "name")
            try ctx.save()
            id = r.objectID
            firstMeta = try #require(try stack.store.documentStore.get(id: "CDTISMetaData")).rev
        }
        let stack = try DocumentStack(model: v2, directory: dir)
        let meta = try #require(try stack.store.documentStore.get(id: "CDTISMetaData"))
        #expect(meta.rev.generation == firstMeta.generation + 1)
        #expect(meta.body == ModelMetadataDocument.body(for: v2))
        let ctx = stack.context()
        let r = try ctx.existingObject(with: id)
        #expect(try r.string("name") == "Old recipe")
        #expect(try r.value(forKey: "createdAt") == .null)
        try r.setValue(.date(Date(timeIntervalSince1970: 1_700_000_000)), forKey: "createdAt")
        try ctx.save()
        let newest = try ctx.fetch(FetchRequest(entityName: "Recipe", sortDescriptors: [FetchSortDescriptor("createdAt", ascending: false)], fetchLimit: 1))
        #expect(newest.map(\.objectID) == [id])
        // Two machines migrating the same store content write the same metadata revision.
        let other = try TemporaryDirectory()
        do {
            // The metadata document is written with a store's first save.
            let ctx = try DocumentStack(model: v1, directory: other).context()
            try ctx.insert("Recipe").setValue(.string("Other recipe"), forKey: "name")
            try ctx.save()
        }
        let migrated = try DocumentStack(model: v2, directory: other)
        #expect(try migrated.store.documentStore.get(id: "CDTISMetaData")?.rev == meta.rev)
    }

    static let dishes = TestSupport.model("""
        <entity name="Dish">
            <attribute name="title" attributeType="String"/>
            <attribute name="photo" optional="YES" attributeType="Binary"/>
            <attribute name="legacy" optional="YES" attributeType="String"/>
        </entity>
        """, name: "Dishes1")

    static let meals = TestSupport.model("""
        <entity name="Meal" renamingIdentifier="Dish">
            <attribute name="name" attributeType="String" renamingIdentifier="title"/>
            <attribute name="picture" optional="YES" attributeType="Binary" renamingIdentifier="photo"/>
            <attribute name="servings" attributeType="Integer 16" defaultValueString="2"/>
            <attribute name="note" optional="YES" attributeType="String"/>
        </entity>
        """, name: "Dishes2")

    @Test func renamesAddsAndRemovalsMigrate() throws {
        let dir = try TemporaryDirectory()
        let old: ObjectID
        do {
            let stack = try DocumentStack(model: Self.dishes, directory: dir)
            let ctx = stack.context()
            let d = try ctx.insert("Dish")
            try d.setValue(.string("Paella"), forKey: "title")
            try d.setValue(.data(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1])), forKey: "photo")
            try d.setValue(.string("gone"), forKey: "legacy")
            try ctx.save()
            old = d.objectID
        }
        let stack = try DocumentStack(model: Self.meals, directory: dir)
        let ctx = stack.context()
        let meals = try ctx.fetch(FetchRequest(entityName: "Meal", predicate: try ObjectPredicate(format: "name == 'Paella'")))
        #expect(meals.count == 1)
        let meal = try #require(meals.first)
        #expect(meal.objectID.referenceString == old.referenceString)
        #expect(try meal.int("servings") == 2)
        #expect(try meal.value(forKey: "note") == .null)
        #expect(try meal.data("picture")?.count == 9)
        let doc = try #require(try stack.store.documentStore.get(id: old.referenceString))
        #expect(doc.body["CDTISEntityName"] == "Meal")
        #expect(doc.body["title"] == nil)
        #expect(doc.attachments["picture"] != nil && doc.attachments["photo"] == nil)
    }

    @Test func incompatibleModelsAreRefusedNamingEntityAndProperty() throws {
        let dir = try TemporaryDirectory()
        do {
            // The metadata document is written with a store's first save.
            let ctx = try DocumentStack(model: Self.dishes, directory: dir).context()
            try ctx.insert("Dish").setValue(.string("Soup"), forKey: "title")
            try ctx.save()
        }
        let retyped = TestSupport.model("""
            <entity name="Dish">
                <attribute name="title" attributeType="Integer 32"/>
            </entity>
            """)
        #expect(throws: DocumentIncrementalStoreError.incompatibleModel(entity: "Dish", property: "title", reason: "stored as utf8 but the model declares int32")) {
            _ = try DocumentStack(model: retyped, directory: dir)
        }
        let required = TestSupport.model("""
            <entity name="Dish">
                <attribute name="title" attributeType="String"/>
                <attribute name="rating" attributeType="Integer 32"/>
            </entity>
            """)
        do {
            _ = try DocumentStack(model: required, directory: dir)
            Issue.record("opening should fail")
        } catch let error as DocumentIncrementalStoreError {
            #expect(error.description.contains("entity Dish, property rating"))
        }
        // The refused opens changed nothing: the original model still opens.
        _ = try DocumentStack(model: Self.dishes, directory: dir)
    }
}
