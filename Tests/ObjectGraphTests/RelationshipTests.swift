import Foundation
import Testing
@testable import ObjectGraph

@Suite("Relationships and delete rules")
struct RelationshipTests {
    @Test func inverseMaintenanceInEveryDirection() throws {
        let stack = try Stack()
        let ctx = stack.context()
        let dessert = try ctx.recipeType("Dessert")
        let main = try ctx.recipeType("Main")
        let cake = try ctx.recipe("Cake")
        let pie = try ctx.recipe("Pie")

        // to-one side sets the to-many inverse; moving it updates both old and new.
        try cake.setObject(dessert, forKey: "type")
        #expect(try dessert.objects(forKey: "recipes") == [cake])
        try cake.setObject(main, forKey: "type")
        #expect(try dessert.objects(forKey: "recipes").isEmpty && main.objects(forKey: "recipes") == [cake])
        try cake.setObject(nil, forKey: "type")
        #expect(try main.objects(forKey: "recipes").isEmpty)

        // to-many side sets the to-one inverse, and steals from the previous owner.
        try dessert.addObject(pie, toKey: "recipes")
        #expect(try pie.object(forKey: "type") === dessert)
        try main.addObject(pie, toKey: "recipes")
        #expect(try pie.object(forKey: "type") === main && dessert.objects(forKey: "recipes").isEmpty)
        try main.removeObject(pie, fromKey: "recipes")
        #expect(try pie.object(forKey: "type") == nil)

        // Ingredients: removing from recipe.ingredients clears ingredient.recipe.
        let flour = try ctx.insert("Ingredient")
        let sugar = try ctx.insert("Ingredient")
        try cake.setObjects([flour, sugar], forKey: "ingredients")
        #expect(try flour.object(forKey: "recipe") === cake && sugar.object(forKey: "recipe") === cake)
        try cake.removeObject(flour, fromKey: "ingredients")
        #expect(try flour.object(forKey: "recipe") == nil)
        try sugar.setObject(pie, forKey: "recipe")
        #expect(try cake.objects(forKey: "ingredients").isEmpty && pie.objects(forKey: "ingredients") == [sugar])
        try pie.setObjects([flour], forKey: "ingredients")
        #expect(try sugar.object(forKey: "recipe") == nil && flour.object(forKey: "recipe") === pie)

        // One-to-one: giving cake's image to pie clears cake.image.
        let photo = try ctx.insert("Image")
        try cake.setObject(photo, forKey: "image")
        #expect(try photo.object(forKey: "recipe") === cake)
        try photo.setObject(pie, forKey: "recipe")
        #expect(try cake.object(forKey: "image") == nil && pie.object(forKey: "image") === photo)
        let photo2 = try ctx.insert("Image")
        try pie.setObject(photo2, forKey: "image")
        #expect(try photo.object(forKey: "recipe") == nil && photo2.object(forKey: "recipe") === pie)
    }

    @Test func addingFromBothSidesNeverListsAnObjectTwice() throws {
        let stack = try Stack()
        let ctx = stack.context()
        let dessert = try ctx.recipeType("Dessert")
        let cake = try ctx.recipe("Cake")
        let pie = try ctx.recipe("Pie")
        try cake.setObject(dessert, forKey: "type")
        try dessert.addObject(cake, toKey: "recipes")
        try dessert.addObject(pie, toKey: "recipes")
        try pie.setObject(dessert, forKey: "type")
        #expect(try dessert.objects(forKey: "recipes") == [cake, pie])
        try ctx.save()
        #expect(try dessert.objects(forKey: "recipes") == [cake, pie])
        // After the save the IDs are permanent everywhere, on both sides of the relationship.
        let ids = try dessert.objectIDs(forKey: "recipes")
        #expect(ids == [cake.objectID, pie.objectID] && ids.allSatisfy { !$0.isTemporary })
        #expect(try cake.objectIDs(forKey: "type") == [dessert.objectID] && !dessert.objectID.isTemporary)
        let other = stack.context("other")
        let reread = try other.existingObject(with: dessert.objectID)
        #expect(try reread.objectIDs(forKey: "recipes") == ids)
    }

    @Test func temporaryIDsAreUniqueAcrossContexts() throws {
        let stack = try Stack()
        let contexts = [stack.context("a"), stack.context("b")]
        var ids = Set<ObjectID>()
        for ctx in contexts {
            for _ in 0..<500 { ids.insert(try ctx.insert("Ingredient").objectID) }
        }
        #expect(ids.count == 1_000 && ids.allSatisfy(\.isTemporary))
    }

    @Test func inverseMaintenanceOnPersistedFaults() throws {
        let stack = try Stack()
        let setup = stack.context()
        let dessert = try setup.recipeType("Dessert")
        try setup.recipe("Cake", type: dessert, ingredients: ["Flour", "Sugar"])
        try setup.recipe("Pie", ingredients: ["Apple"])
        try setup.save()

        let ctx = stack.context()
        let recipes = try ctx.fetch(FetchRequest(entityName: "Recipe", sortDescriptors: [FetchSortDescriptor("name")]))
        let (cake, pie) = (recipes[0], recipes[1])
        // The destination as a fault (reading `type` itself fires it, to tell a destination
        // the store holds from one that has not replicated yet).
        let type = try ctx.object(with: try #require(try cake.objectIDs(forKey: "type").first))
        #expect(type.isFault)
        try pie.setObject(type, forKey: "type")  // loads type.recipes lazily, then appends
        #expect(try Set(type.objects(forKey: "recipes")) == [cake, pie])
        let flour = try cake.objects(forKey: "ingredients").first { try $0.string("name") == "Flour" }!
        try flour.setObject(pie, forKey: "recipe")
        #expect(try cake.objects(forKey: "ingredients").count == 1 && pie.objects(forKey: "ingredients").count == 2)
        try ctx.save()

        let check = stack.context()
        let pie2 = try check.existingObject(with: pie.objectID)
        #expect(try Set(pie2.objects(forKey: "ingredients").map { try $0.string("name")! }) == ["Apple", "Flour"])
        #expect(try check.existingObject(with: type.objectID).objects(forKey: "recipes").count == 2)
        let table = stack.store.toManyTable()
        #expect(table[cake.objectID]?["ingredients"]?.count == 1)
    }

    @Test("primitive relationship setters leave the inverse alone, save what they are given, and refuse a wrong entity")
    func primitiveSettersSkipTheInverse() throws {
        let stack = try Stack()
        let setup = stack.context()
        let dessert = try setup.recipeType("Dessert")
        try setup.recipe("Cake", type: dessert)
        try setup.recipe("Pie")
        try setup.save()

        let ctx = stack.context()
        let recipes = try ctx.fetch(FetchRequest(entityName: "Recipe", sortDescriptors: [FetchSortDescriptor("name")]))
        let (cake, pie) = (recipes[0], recipes[1])
        let type = try #require(try cake.object(forKey: "type"))
        try pie.setPrimitiveObjectID(type.objectID, forKey: "type")
        #expect(try pie.objectIDs(forKey: "type") == [type.objectID])
        #expect(try type.objectIDs(forKey: "recipes") == [cake.objectID])
        #expect(!type.hasChanges)
        try type.setPrimitiveObjectIDs([pie.objectID, cake.objectID], forKey: "recipes")
        #expect(try cake.objectIDs(forKey: "type") == [type.objectID])
        try ctx.save()

        let check = stack.context()
        #expect(try check.existingObject(with: type.objectID).objectIDs(forKey: "recipes") == [pie.objectID, cake.objectID])
        #expect(try check.existingObject(with: pie.objectID).objectIDs(forKey: "type") == [type.objectID])

        // Setting what is there already changes nothing.
        let again = try check.existingObject(with: pie.objectID)
        try again.setPrimitiveObjectID(type.objectID, forKey: "type")
        #expect(!again.hasChanges)

        let wrongEntity = #expect(throws: ObjectGraphError.self) { try again.setPrimitiveObjectID(cake.objectID, forKey: "type") }
        guard case .wrongDestination("Recipe", "type", "RecipeType", "Recipe")? = wrongEntity else {
            Issue.record("a recipe as a recipe's type: \(String(describing: wrongEntity))")
            return
        }
        let wrongMember = #expect(throws: ObjectGraphError.self) { try type.setPrimitiveObjectIDs([pie.objectID, type.objectID], forKey: "recipes") }
        guard case .wrongDestination("RecipeType", "recipes", "Recipe", "RecipeType")? = wrongMember else {
            Issue.record("a type among a type's recipes: \(String(describing: wrongMember))")
            return
        }
        let toMany = #expect(throws: ObjectGraphError.self) { try again.setPrimitiveObjectID(nil, forKey: "ingredients") }
        guard case .unknownProperty("Recipe", "ingredients", _)? = toMany else {
            Issue.record("a to-many set as a to-one: \(String(describing: toMany))")
            return
        }
        #expect(!again.hasChanges && !type.hasChanges)
    }

    @Test func nullifyAndCascade() throws {
        let stack = try Stack()
        let ctx = stack.context()
        let dessert = try ctx.recipeType("Dessert")
        let cake = try ctx.recipe("Cake", type: dessert, ingredients: ["Flour", "Sugar"])
        let pie = try ctx.recipe("Pie", type: dessert)
        let photo = try ctx.insert("Image")
        try cake.setObject(photo, forKey: "image")
        try ctx.save()

        // Nullify: deleting the type leaves the recipes without a type.
        try ctx.delete(dessert)
        #expect(try cake.object(forKey: "type") == nil && pie.object(forKey: "type") == nil)
        try ctx.save()
        // Nullify from the to-one side: deleting an ingredient removes it from the recipe.
        let flour = try cake.objects(forKey: "ingredients")[0]
        try ctx.delete(flour)
        #expect(try cake.objects(forKey: "ingredients").count == 1)
        try ctx.save()
        // Cascade: deleting the recipe deletes its ingredients and image.
        try ctx.delete(cake)
        #expect(ctx.deletedObjects.count == 3 && photo.isDeleted)
        try ctx.save()
        #expect(stack.store.allObjectIDs == [pie.objectID])
        // Deleting the image (nullify) leaves the recipe in place.
        let p2 = try ctx.insert("Image")
        try pie.setObject(p2, forKey: "image")
        try ctx.save()
        try ctx.delete(p2)
        #expect(try pie.object(forKey: "image") == nil)
        try ctx.save()
        let check = stack.context()
        #expect(try check.existingObject(with: pie.objectID).object(forKey: "image") == nil)
    }

    @Test func denyAndNoAction() throws {
        let stack = try Stack(model: TestModels.rules)
        let ctx = stack.context()
        let tag = try ctx.insert("Tag")
        try tag.setValue(.string("t"), forKey: "label")
        let owner = try ctx.insert("Owner")
        try owner.addObject(tag, toKey: "tags")
        let pet = try ctx.insert("Pet")
        try pet.setObject(owner, forKey: "owner")
        let note = try ctx.insert("Note")
        try note.setObject(owner, forKey: "owner")
        try ctx.save()

        do {
            try ctx.delete(owner)
            Issue.record("deny did not refuse")
        } catch ObjectGraphError.deleteDenied(let o, let rel, let dests) {
            #expect(o == owner.objectID && rel == "pets" && dests == [pet.objectID])
        }
        #expect(!owner.isDeleted && !ctx.hasChanges)
        try owner.removeObject(pet, fromKey: "pets")
        try ctx.delete(owner)
        #expect(owner.isDeleted)
        // No action: the note keeps pointing at the deleted owner; nullify removed the tag link.
        #expect(try note.objectIDs(forKey: "owner") == [owner.objectID])
        #expect(try tag.objects(forKey: "owners").isEmpty)
        try ctx.save()
        #expect(try stack.store.snapshot(for: note.objectID)?.toOne["owner"] == owner.objectID)
    }

    @Test func validationListsEveryFailure() throws {
        let stack = try Stack()
        let ctx = stack.context()
        let nameless = try ctx.insert("Recipe")
        let empty = try ctx.recipe("")
        let ing = try ctx.insert("Ingredient")
        try ing.setValue(.int(-1), forKey: "displayOrder")
        do {
            try ctx.save()
            Issue.record("validation passed")
        } catch ObjectGraphError.validation(let failures) {
            let found = Set(failures.map { "\($0.objectID.entityName).\($0.key)" })
            #expect(found == ["Recipe.name", "Ingredient.displayOrder"])
            #expect(failures.count == 3)
            #expect(failures.contains { $0.objectID == nameless.objectID && $0.reason.contains("required") })
            #expect(failures.contains { $0.objectID == empty.objectID && $0.reason.contains("below the minimum") })
        }
        #expect(ctx.hasChanges && stack.store.allObjectIDs.isEmpty)

        let rules = try Stack(model: TestModels.rules).context()
        let owner = try rules.insert("Owner")
        try owner.setValue(.string("toolong"), forKey: "name")
        for _ in 0..<3 { try owner.addObject(try rules.insert("Pet"), toKey: "pets") }
        let pet = try rules.insert("Pet")
        try pet.setValue(.int(31), forKey: "age")
        let tagless = try rules.insert("Tag")
        do {
            try rules.save()
            Issue.record("validation passed")
        } catch ObjectGraphError.validation(let failures) {
            let keys = failures.map { "\($0.objectID.entityName).\($0.key)" }.sorted()
            #expect(keys == ["Owner.name", "Owner.pets", "Owner.tags", "Pet.age", "Tag.label"])
            #expect(failures.first { $0.key == "pets" }?.reason.contains("at most 2") == true)
            _ = tagless
        }
    }
}
