import Foundation
import Testing
@testable import ObjectGraph

@Suite("Merging and save conflicts")
struct MergeAndConflictTests {
    @Test func mergeSaveIntoSecondContext() async throws {
        let stack = try Stack()
        let a = stack.context("a"), b = stack.context("b")
        let cakeA = try a.recipe("Cake", ingredients: ["Flour"])
        let toastA = try a.recipe("Toast")
        try a.save()

        let cakeB = try b.existingObject(with: cakeA.objectID)
        let toastB = try b.existingObject(with: toastA.objectID)
        #expect(try cakeB.objects(forKey: "ingredients").count == 1)
        var saves = a.saves().makeAsyncIterator()
        try cakeA.setValue(.string("Chocolate Cake"), forKey: "name")
        let sugar = try a.insert("Ingredient")
        try sugar.setValue(.string("Sugar"), forKey: "name")
        try cakeA.addObject(sugar, toKey: "ingredients")
        try a.delete(toastA)
        try a.save()
        let note = try #require(await saves.next())
        #expect(note.updated == [cakeA.objectID] && note.inserted == [sugar.objectID] && note.deleted == [toastA.objectID])

        #expect(try cakeB.string("name") == "Cake")   // not merged yet
        b.mergeChanges(from: note)
        #expect(try cakeB.string("name") == "Chocolate Cake")
        #expect(try Set(cakeB.objects(forKey: "ingredients").map { try $0.string("name")! }) == ["Flour", "Sugar"])
        #expect(toastB.managedObjectContext == nil && b.registeredObject(for: toastA.objectID) == nil)

        // A context with its own change keeps it over merged values.
        try cakeB.setValue(.string("Mine"), forKey: "prepTime")
        try cakeA.setValue(.string("Cake au chocolat"), forKey: "name")
        try a.save()
        b.mergeChanges(from: try #require(await saves.next()))
        #expect(try cakeB.string("name") == "Cake au chocolat" && cakeB.string("prepTime") == "Mine")
        try b.save()   // based on the merged version: no conflict
        let row = try #require(try stack.store.snapshot(for: cakeA.objectID))
        #expect(row.attributes["name"] == .string("Cake au chocolat") && row.attributes["prepTime"] == .string("Mine"))
    }

    @Test func automaticMergeFromSiblings() throws {
        let stack = try Stack()
        let writer = stack.context("writer"), viewer = stack.context("viewer")
        viewer.automaticallyMergesChanges = true
        let cake = try writer.recipe("Cake")
        try writer.save()
        let id = cake.objectID
        let viewed = try viewer.existingObject(with: id)
        #expect(try viewed.string("name") == "Cake")
        try writer.existingObject(with: id).setValue(.string("Cheesecake"), forKey: "name")
        try writer.save()
        #expect(try viewed.string("name") == "Cheesecake")
    }

    /// Saves a recipe, loads it in `mine`, changes it in `theirs` and saves there.
    static func conflicting(_ stack: Stack) throws -> (mine: ObjectContext, theirs: ObjectContext, recipe: ManagedObject, id: ObjectID) {
        let setup = stack.context("setup")
        let r = try setup.recipe("Cake", prepTime: "60")
        try r.setValue(.string("Rich"), forKey: "overview")
        try setup.save()
        let mine = stack.context("mine"), theirs = stack.context("theirs")
        let recipe = try mine.existingObject(with: r.objectID)
        let other = try theirs.existingObject(with: r.objectID)
        try other.setValue(.string("Store Cake"), forKey: "name")
        try other.setValue(.string("30"), forKey: "prepTime")
        try theirs.save()
        try recipe.setValue(.string("My Cake"), forKey: "name")
        try recipe.setValue(.string("Light"), forKey: "overview")
        return (mine, theirs, recipe, r.objectID)
    }

    @Test func errorPolicyFailsAndKeepsChanges() throws {
        let stack = try Stack()
        let (mine, _, recipe, id) = try Self.conflicting(stack)
        do {
            try mine.save()
            Issue.record("no conflict")
        } catch ObjectGraphError.mergeConflicts(let conflicts) {
            #expect(conflicts.count == 1 && conflicts[0].objectID == id)
            #expect(conflicts[0].changedInStore == ["name", "prepTime"])
            #expect(conflicts[0].storedSnapshot?.attributes["name"] == .string("Store Cake"))
        }
        #expect(try mine.hasChanges && recipe.string("name") == "My Cake")
        #expect(try stack.store.snapshot(for: id)?.attributes["name"] == .string("Store Cake"))
    }

    @Test func storeTrumps() throws {
        let stack = try Stack()
        let (mine, _, recipe, id) = try Self.conflicting(stack)
        mine.mergePolicy = .storeTrumps
        try mine.save()
        let row = try #require(try stack.store.snapshot(for: id))
        // name conflicted: the store wins; overview changed only here: kept; prepTime from the store.
        #expect(row.attributes["name"] == .string("Store Cake") && row.attributes["overview"] == .string("Light") && row.attributes["prepTime"] == .string("30"))
        #expect(try recipe.string("name") == "Store Cake" && !mine.hasChanges)
    }

    @Test func objectTrumps() throws {
        let stack = try Stack()
        let (mine, _, recipe, id) = try Self.conflicting(stack)
        mine.mergePolicy = .objectTrumps
        try mine.save()
        let row = try #require(try stack.store.snapshot(for: id))
        #expect(row.attributes["name"] == .string("My Cake") && row.attributes["overview"] == .string("Light"))
        #expect(row.attributes["prepTime"] == .string("30"))   // not changed here: the store's value stays
        #expect(try recipe.string("prepTime") == "30")
    }

    @Test func rollbackPolicy() throws {
        let stack = try Stack()
        let (mine, _, recipe, id) = try Self.conflicting(stack)
        let extra = try mine.recipe("Extra")
        mine.mergePolicy = .rollback
        try mine.save()
        let row = try #require(try stack.store.snapshot(for: id))
        #expect(row.attributes["name"] == .string("Store Cake") && row.attributes["overview"] == .string("Rich"))
        #expect(try recipe.string("overview") == "Rich")
        #expect(stack.store.allObjectIDs.contains(extra.objectID))   // non-conflicting work is saved
    }

    @Test func customPolicy() throws {
        let stack = try Stack()
        let (mine, _, recipe, id) = try Self.conflicting(stack)
        let seen = NotificationBox()
        mine.mergePolicy = .custom { conflict in
            seen.append(SaveNotification(inserted: [], updated: [conflict.conflict.objectID], deleted: []))
            let theirs = conflict.conflict.storedSnapshot?.attributes["name"]?.stringValue ?? ""
            let ours = conflict.localChanges["name"]?.stringValue ?? ""
            return .merged(["name": .string(ours + " / " + theirs), "overview": conflict.localChanges["overview"] ?? .null])
        }
        try mine.save()
        #expect(seen.all.count == 1)
        let row = try #require(try stack.store.snapshot(for: id))
        #expect(row.attributes["name"] == .string("My Cake / Store Cake") && row.attributes["overview"] == .string("Light") && row.attributes["prepTime"] == .string("30"))
        #expect(try recipe.string("name") == "My Cake / Store Cake")

        let (mine2, _, _, _) = try Self.conflicting(try Stack())
        mine2.mergePolicy = .custom { _ in .fail }
        #expect(throws: ObjectGraphError.self) { try mine2.save() }
    }

    @Test func conflictsOnDeletedRowsAndToManyMerge() throws {
        let stack = try Stack()
        let setup = stack.context()
        let dessert = try setup.recipeType("Dessert")
        let doomed = try setup.recipe("Doomed")
        try setup.save()
        let a = stack.context("a"), b = stack.context("b")
        // Both contexts add a recipe to the same type: the to-many merge keeps both.
        let typeA = try a.existingObject(with: dessert.objectID), typeB = try b.existingObject(with: dessert.objectID)
        _ = try typeA.objects(forKey: "recipes"); _ = try typeB.objects(forKey: "recipes")
        try a.recipe("Cake", type: typeA)
        try b.recipe("Pie", type: typeB)
        try a.save()
        b.mergePolicy = .storeTrumps
        try b.save()
        let check = stack.context("check")
        #expect(try check.existingObject(with: dessert.objectID).objects(forKey: "recipes").count == 2)

        // An object deleted in the store while changed here: store trumps drops it, object trumps writes it again.
        let mineA = try a.existingObject(with: doomed.objectID)
        let mineB = try b.existingObject(with: doomed.objectID)
        try check.delete(try check.existingObject(with: doomed.objectID))
        try check.save()
        try mineA.setValue(.string("Saved"), forKey: "name")
        a.mergePolicy = .storeTrumps
        try a.save()
        #expect(mineA.managedObjectContext == nil && !stack.store.allObjectIDs.contains(doomed.objectID))
        try mineB.setValue(.string("Resurrected"), forKey: "name")
        b.mergePolicy = .objectTrumps
        try b.save()
        #expect(try stack.store.snapshot(for: doomed.objectID)?.attributes["name"] == .string("Resurrected"))
    }

    @Test func refreshAndStoreChangesUnderneath() async throws {
        let stack = try Stack()
        let ctx = stack.context()
        let r = try ctx.recipe("Cake")
        let t = try ctx.recipe("Toast")
        try ctx.save()
        #expect(try r.string("name") == "Cake")
        let ids = (r.objectID, t.objectID)
        var changes = ctx.storeChanges().makeAsyncIterator()
        // A replicator rewrites the recipe and deletes the toast underneath.
        stack.store.applyExternalChanges(
            upserts: [ObjectChange(objectID: ids.0, attributes: ["name": .string("Replicated Cake")], toOne: [:], toMany: [:], changedKeys: ["name"], baseline: nil)],
            deletions: [ids.1])
        let name = try ctx.registeredObject(for: ids.0)?.string("name")
        #expect(name == "Replicated Cake")
        #expect(ctx.registeredObject(for: ids.1) == nil)
        #expect(await changes.next()?.deleted == [ids.1])

        // refresh(mergeChanges: false) discards local changes; true keeps them over new values.
        let cake = try ctx.existingObject(with: ids.0)
        try cake.setValue(.string("Local"), forKey: "name")
        try ctx.refresh(cake, mergeChanges: false)
        #expect(!ctx.hasChanges && cake.isFault)
        #expect(try cake.string("name") == "Replicated Cake")
        try cake.setValue(.string("Quick"), forKey: "prepTime")
        stack.store.applyExternalChanges(upserts: [ObjectChange(objectID: ids.0, attributes: ["name": .string("Again")], toOne: [:], toMany: [:], changedKeys: ["name"], baseline: nil)])
        ctx.processPendingChanges()
        try ctx.refresh(cake, mergeChanges: true)
        #expect(try cake.string("name") == "Again" && cake.string("prepTime") == "Quick")
        try ctx.save()   // based on the refreshed version: no conflict
    }

    @Test func contextsWorkConcurrently() async throws {
        let stack = try Stack()
        let background = RecipeWorker(coordinator: stack.coordinator, name: "background")
        let foreground = RecipeWorker(coordinator: stack.coordinator, name: "foreground")
        async let written = background.write(batches: 5, of: 20)
        async let reads = foreground.readCountsGrowing(times: 20, step: 20)
        let (w, r) = try await (written, reads)
        #expect(w == 100 && r <= 100)
        #expect(try await foreground.count() == 100)
    }
}

/// A context owned by an actor: its work runs beside another actor's on the same coordinator.
actor RecipeWorker: ObjectActor {
    let context: ObjectContext

    init(coordinator: PersistentStoreCoordinator, name: String) {
        context = ObjectContext(coordinator: coordinator, name: name)
    }

    /// Inserts `batches` batches of `size` recipes, saving after each; returns the count.
    func write(batches: Int, of size: Int) throws -> Int {
        for batch in 0..<batches {
            for i in 0..<size { try context.recipe("R\(batch)-\(i)") }
            try context.save()
        }
        return try count()
    }

    /// Counts the recipes `times` times, checking the count only grows, by whole batches.
    func readCountsGrowing(times: Int, step: Int) throws -> Int {
        var last = 0
        for _ in 0..<times {
            let n = try count()
            #expect(n >= last && n % step == 0)
            last = n
        }
        return last
    }

    func count() throws -> Int {
        try context.count(for: FetchRequest(entityName: "Recipe"))
    }
}

@Suite("Replication conflicts")
struct ReplicationConflictTests {
    /// A saved recipe with one losing version injected, as replication would leave it.
    static func conflicted() throws -> (Stack, ObjectContext, ObjectID) {
        let stack = try Stack()
        let ctx = stack.context()
        let r = try ctx.recipe("Cake", prepTime: "60")
        try ctx.save()
        try stack.store.injectConflictingVersion(ObjectChange(
            objectID: r.objectID, attributes: ["name": .string("Gâteau"), "prepTime": .string("60"), "overview": .string("From the other device")],
            toOne: [:], toMany: ["ingredients": []], changedKeys: ["name", "overview"], baseline: nil))
        #expect(try stack.store.objectsWithConflicts() == [r.objectID])
        return (stack, ctx, r.objectID)
    }

    /// A policy that throws after seeing the conflict.
    struct Refused: Error {}

    @Test func failingPolicyListsConflictsAndChangesNothing() throws {
        let (stack, ctx, id) = try Self.conflicted()
        let conflicts = try stack.coordinator.replicaConflicts()
        #expect(conflicts.map(\.objectID) == [id] && conflicts[0].conflictingProperties == ["name", "overview"])
        #expect(throws: Refused.self) {
            try ctx.resolveReplicaConflicts(policy: .custom { _ in throw Refused() })
        }
        #expect(try stack.store.objectsWithConflicts() == [id])
        #expect(try stack.store.snapshot(for: id)?.attributes["name"] == .string("Cake"))
    }

    @Test func storeTrumpsKeepsTheWinner() throws {
        let (stack, ctx, id) = try Self.conflicted()
        #expect(try ctx.resolveReplicaConflicts(policy: .winnerTrumps) == [id])
        #expect(try stack.store.objectsWithConflicts().isEmpty)
        #expect(try ctx.existingObject(with: id).string("name") == "Cake")
    }

    @Test func keepingTheLoserTakesItsValues() throws {
        let (stack, ctx, id) = try Self.conflicted()
        let recipe = try ctx.existingObject(with: id)
        #expect(try recipe.string("name") == "Cake")
        try ctx.resolveReplicaConflicts(policy: .custom { conflict in .keep(conflict.others[0].version) })
        #expect(try recipe.string("name") == "Gâteau" && recipe.string("overview") == "From the other device")
        #expect(try stack.store.snapshot(for: id)?.attributes["prepTime"] == .string("60"))
    }

    @Test func customPolicyMerges() throws {
        let (stack, ctx, id) = try Self.conflicted()
        try ctx.resolveReplicaConflicts(policy: .custom { c in
            .merged(["overview": c.others[0].attributes["overview"] ?? .null])
        })
        let row = try #require(try stack.store.snapshot(for: id))
        #expect(row.attributes["name"] == .string("Cake") && row.attributes["overview"] == .string("From the other device"))
        #expect(try stack.store.replicaConflicts().isEmpty)
    }

    /// A losing version that descends from the saved row: name and overview changed there,
    /// prepTime changed here afterwards.
    static func divergedFromBase() throws -> (Stack, ObjectContext, ObjectID, version: RowVersion) {
        let stack = try Stack()
        let ctx = stack.context()
        let r = try ctx.recipe("Cake", prepTime: "60")
        try ctx.save()
        let base = try #require(try stack.store.snapshot(for: r.objectID))
        try r.setValue(.string("Cheesecake"), forKey: "name")
        try r.setValue(.string("90"), forKey: "prepTime")
        try ctx.save()
        try stack.store.injectConflictingVersion(ObjectChange(
            objectID: r.objectID, attributes: base.attributes.merging(["name": .string("Gâteau"), "overview": .string("Other device")]) { $1 },
            toOne: base.toOne, toMany: ["ingredients": []], changedKeys: ["name", "overview"], baseline: base))
        let version = try #require(try stack.store.replicaConflicts().first?.others.first?.version)
        return (stack, ctx, r.objectID, version)
    }

    @Test func storeTrumpsMergesPropertyByPropertyFromTheBase() throws {
        let (stack, ctx, id, _) = try Self.divergedFromBase()
        try ctx.resolveReplicaConflicts(policy: .winnerTrumps)
        let row = try #require(try stack.store.snapshot(for: id))
        #expect(row.attributes["name"] == .string("Cheesecake"), "both changed it: the winner's")
        #expect(row.attributes["prepTime"] == .string("90"))
        #expect(row.attributes["overview"] == .string("Other device"), "only the loser changed it: kept")
    }

    @Test func preferringAVersionTakesWhatItChanged() throws {
        let (stack, ctx, id, version) = try Self.divergedFromBase()
        try ctx.resolveReplicaConflicts(policy: .custom { _ in .prefer(version) })
        let row = try #require(try stack.store.snapshot(for: id))
        #expect(row.attributes["name"] == .string("Gâteau"))
        #expect(row.attributes["overview"] == .string("Other device"))
        #expect(row.attributes["prepTime"] == .string("90"), "only the winner changed it: kept")
        #expect(try stack.store.objectsWithConflicts().isEmpty)
    }

    @Test func resolutionIsDeterministicAcrossReplicas() throws {
        // Two stores holding the same conflict reach the same row under storeTrumps.
        let first = try Self.divergedFromBase(), second = try Self.divergedFromBase()
        try first.1.resolveReplicaConflicts(policy: .winnerTrumps)
        try second.1.resolveReplicaConflicts(policy: .winnerTrumps)
        #expect(try first.0.store.snapshot(for: first.2)?.attributes == second.0.store.snapshot(for: second.2)?.attributes)
    }
}
