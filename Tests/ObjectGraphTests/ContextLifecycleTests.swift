import Foundation
import Synchronization
import Testing
@testable import ObjectGraph

@Suite("Context lifecycle")
struct ContextLifecycleTests {
    @Test func insertSaveFetchUpdateDelete() async throws {
        let stack = try Stack()
        let ctx = stack.context()
        let type = try ctx.recipeType("Dessert")
        let cake = try ctx.recipe("Cake", type: type, ingredients: ["Flour", "Sugar"])
        #expect(cake.objectID.isTemporary && cake.isInserted && ctx.hasChanges)
        #expect(ctx.insertedObjects.count == 4)
        let ing = try ctx.insert("Ingredient")
        #expect(try ing.value(forKey: "displayOrder") == .int(0))  // model default
        try ctx.delete(ing)
        #expect(ctx.insertedObjects.count == 4)
        #expect(ing.managedObjectContext == nil)

        var saves = ctx.saves().makeAsyncIterator()
        try ctx.save()
        let notes = [try #require(await saves.next())]
        #expect(!ctx.hasChanges && !cake.objectID.isTemporary && !cake.isInserted)
        #expect(notes.count == 1 && notes[0].inserted.count == 4 && notes[0].inserted.contains(cake.objectID))
        #expect(ObjectID(stringRepresentation: cake.objectID.stringRepresentation) == cake.objectID)
        #expect(stack.store.allObjectIDs.count == 4)

        // Another context sees the saved graph, through faults.
        let other = stack.context("other")
        let fetched = try other.fetch(FetchRequest(entityName: "Recipe"))
        #expect(fetched.count == 1)
        let cake2 = try #require(fetched.first)
        #expect(cake2 !== cake && cake2.objectID == cake.objectID)
        #expect(try cake2.string("name") == "Cake")
        #expect(try cake2.object(forKey: "type")?.string("name") == "Dessert")
        let toManyReads = stack.store.toManyCount   // to-many relationships load lazily, once
        #expect(try Set(cake2.objects(forKey: "ingredients").map { try $0.string("name")! }) == ["Flour", "Sugar"])
        #expect(try cake2.objects(forKey: "ingredients").count == 2)
        #expect(stack.store.toManyCount == toManyReads + 1)

        // Update.
        try cake2.setValue(.string("Chocolate Cake"), forKey: "name")
        #expect(other.updatedObjects == [cake2] && cake2.changedKeys == ["name"])
        let before = try stack.store.snapshot(for: cake.objectID)!.version
        try other.save()
        let after = try stack.store.snapshot(for: cake.objectID)!
        #expect(after.version != before && after.attributes["name"] == .string("Chocolate Cake"))

        // Delete (cascade removes the ingredients; nullify detaches the type).
        try other.delete(cake2)
        #expect(other.deletedObjects.count == 3)
        try other.save()
        #expect(stack.store.allObjectIDs.map(\.entityName) == ["RecipeType"])
        #expect(cake2.managedObjectContext == nil)
        #expect(throws: ObjectGraphError.self) { try cake2.value(forKey: "name") }
        let remainingType = try other.existingObject(with: type.objectID)
        #expect(try remainingType.objects(forKey: "recipes").isEmpty)
    }

    @Test func rollbackDiscardsEverything() throws {
        let stack = try Stack()
        let ctx = stack.context()
        let pie = try ctx.recipe("Pie", ingredients: ["Apple"])
        let toast = try ctx.recipe("Toast")
        try ctx.save()
        try pie.setValue(.string("Apple Pie"), forKey: "name")
        try ctx.delete(toast)
        let soup = try ctx.recipe("Soup")
        let apple = try pie.objects(forKey: "ingredients")[0]
        try pie.removeObject(apple, fromKey: "ingredients")
        #expect(ctx.hasChanges && soup.isInserted && toast.isDeleted)
        ctx.rollback()
        #expect(!ctx.hasChanges)
        #expect(try pie.string("name") == "Pie")
        #expect(try !toast.isDeleted && toast.string("name") == "Toast")
        #expect(soup.managedObjectContext == nil)
        #expect(try pie.objects(forKey: "ingredients") == [apple])
        #expect(try apple.object(forKey: "recipe") === pie)
        #expect(try ctx.count(for: FetchRequest(entityName: "Recipe")) == 2)
    }

    @Test func identityMap() throws {
        let stack = try Stack()
        let ctx = stack.context()
        let pie = try ctx.recipe("Pie")
        try ctx.save()
        let a = try ctx.fetch(FetchRequest(entityName: "Recipe"))[0]
        let b = try ctx.fetch(FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "name == 'Pie'")))[0]
        #expect(try a === pie && b === pie && ctx.object(with: pie.objectID) === pie)
        let other = stack.context()
        let c = try other.object(with: pie.objectID)
        #expect(c !== pie && c.isFault)
        #expect(try c.string("name") == "Pie" && !c.isFault)
        #expect(try other.object(with: pie.objectID) === c)
        // An object of a vanished row cannot be fulfilled.
        let ghost = ObjectID(entityName: "Recipe", referenceString: "nope")
        #expect(throws: ObjectGraphError.self) { try other.existingObject(with: ghost) }
    }

    @Test func typeChecking() throws {
        let stack = try Stack()
        let ctx = stack.context()
        let r = try ctx.recipe("Pie")
        let ing = try ctx.insert("Ingredient")
        #expect(throws: ObjectGraphError.self) { try r.setValue(.int(3), forKey: "name") }
        #expect(throws: ObjectGraphError.self) { try r.setValue(.string("x"), forKey: "colour") }
        #expect(throws: ObjectGraphError.self) { try ing.setValue(.int(70000), forKey: "displayOrder") }
        #expect(throws: ObjectGraphError.self) { try r.setObject(ing, forKey: "type") }
        #expect(throws: ObjectGraphError.self) { try r.setObject(ing, forKey: "ingredients") }
        #expect(throws: ObjectGraphError.self) { try ctx.insert("Nope") }
        try r.setValue(.data(Data([1, 2])), forKey: "thumbnailImage")
        try r.setValue("Nice", forKey: "overview")
        #expect(try r.data("thumbnailImage") == Data([1, 2]) && r.string("overview") == "Nice")
        let other = stack.context()
        let foreign = try other.insert("RecipeType")
        #expect(throws: ObjectGraphError.self) { try r.setObject(foreign, forKey: "type") }
        let rules = try Stack(model: TestModels.rules).context()
        #expect(throws: ObjectGraphError.self) { try rules.insert("Media") }
        let book = try rules.insert("Book")
        try book.setValue(.int(3), forKey: "pages")
        #expect(try book.value(forKey: "pages") == .int(3))
    }
}

/// Collects notifications from callbacks on any thread.
final class NotificationBox: Sendable {
    private let notes = Mutex<[SaveNotification]>([])
    func append(_ n: SaveNotification) { notes.withLock { $0.append(n) } }
    var all: [SaveNotification] { notes.withLock { $0 } }
}
