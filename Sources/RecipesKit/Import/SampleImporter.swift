import Foundation
public import ObjectGraph

/// Writes sample sets into the object graph with their deterministic IDs (``SampleObjects``),
/// so importing twice, or on two machines, yields the same documents and revisions.
///
/// An import is all or nothing: it runs inside one store transaction
/// (`PersistentStoreCoordinator.performAtomically(_:)`), saving a batch of recipes (with
/// their ingredients and pictures) at a time and forgetting each batch once saved. The sets
/// come as ``ImportableSampleSet``s, which hand out their recipes a batch at a time (a
/// ``SampleSetFile`` reads them from the file as it goes), and each batch's objects are
/// derived only when it is staged, so a set of 100,000 recipes needs the memory of one
/// batch, not of the whole set. A recipe type's list of recipes, which grows with the set, is
/// not rewritten with every batch: recipes are linked to their type alone while the batches
/// go, and each type's list is written once at the end (`PendingTypeLists`), still inside
/// the transaction. On any error nothing is written. Objects already in the store are read in bulk and updated only where
/// their values differ from the set's, so a repeated import writes nothing.
public struct SampleImporter {
    /// The context the import is staged in.
    public let context: ObjectContext
    /// Recipes saved together (with their ingredients and pictures).
    public var batchSize: Int
    /// Called after each saved batch with the objects done so far and the total.
    public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?
    /// Whether the plan lists every change (``ImportPlan/changes``) or only counts them
    /// (``ImportPlan/unlistedChanges``), which keeps a large import's memory down.
    public var listsChanges = true

    /// An importer working in `context` (use a context of its own: an import resets it, and
    /// a failed or dry-run import rolls it back).
    public init(context: ObjectContext, batchSize: Int = 2_000) {
        self.context = context
        self.batchSize = max(1, batchSize)
    }

    /// Imports `sets` and saves; returns what changed.
    /// - Parameters:
    ///   - sets: the sample sets to import.
    ///   - excluding: document IDs to leave out (with a recipe, its ingredients and
    ///     picture go too); seeding passes the samples the user deleted.
    @discardableResult
    public func importSets(_ sets: [SampleSet], excluding: Set<String> = []) throws(RecipesError) -> ImportPlan {
        try importSets(sets.map { $0 as any ImportableSampleSet }, excluding: excluding)
    }

    /// Imports `sets` (in memory, or set files read a batch at a time) and saves; returns
    /// what changed. Every set's limits are checked before anything is written.
    /// - Parameters:
    ///   - sets: the sample sets to import.
    ///   - excluding: document IDs to leave out (with a recipe, its ingredients and
    ///     picture go too); seeding passes the samples the user deleted.
    @discardableResult
    public func importSets(_ sets: [any ImportableSampleSet], excluding: Set<String> = []) throws(RecipesError) -> ImportPlan {
        for set in sets { try set.checkLimits() }
        var plan = ImportPlan(sets: sets.map(\.name))
        do {
            try context.coordinator.performAtomically {
                let total = sets.reduce(0) { $0 + $1.objectCount }
                var done = 0
                var listedTypes = Set<String>()
                var typeLists = PendingTypeLists()
                for set in sets {
                    try set.forEachBatch(of: batchSize) { firstIndex, recipes in
                        let batch = Batch(set, recipes: recipes, firstIndex: firstIndex, excluding: excluding)
                        done += try stage(batch, into: &plan, listedTypes: &listedTypes, typeLists: &typeLists)
                        try context.save()
                        context.reset()
                        context.coordinator.discardCachedRows()
                        progress?(done, total)
                    }
                }
                // Each type's list of recipes, written once, one type at a time.
                try writeTypeLists(typeLists, into: &plan, listedTypes: listedTypes) {
                    try context.save()
                    context.reset()
                }
                context.coordinator.discardCachedRows()
            }
            return plan
        } catch {
            context.rollback()
            context.reset()
            throw RecipeBook.recipesError(error)
        }
    }

    /// What ``importSets(_:excluding:)-([SampleSet],_)`` would change, without writing anything.
    public func plan(_ sets: [SampleSet], excluding: Set<String> = []) throws(RecipesError) -> ImportPlan {
        try plan(sets.map { $0 as any ImportableSampleSet }, excluding: excluding)
    }

    /// What ``importSets(_:excluding:)-([ImportableSampleSet],_)`` would change, without
    /// writing anything. Each set is staged as one batch (nothing is saved, so the context
    /// holds it all anyway).
    public func plan(_ sets: [any ImportableSampleSet], excluding: Set<String> = []) throws(RecipesError) -> ImportPlan {
        for set in sets { try set.checkLimits() }
        defer {
            context.rollback()
            context.reset()
        }
        var plan = ImportPlan(sets: sets.map(\.name))
        do {
            var listedTypes = Set<String>()
            var typeLists = PendingTypeLists()
            for set in sets {
                try set.forEachBatch(of: max(1, set.recipeCount)) { firstIndex, recipes in
                    let batch = Batch(set, recipes: recipes, firstIndex: firstIndex, excluding: excluding)
                    _ = try stage(batch, into: &plan, listedTypes: &listedTypes, typeLists: &typeLists)
                }
            }
            try writeTypeLists(typeLists, into: &plan, listedTypes: listedTypes) {}
            return plan
        } catch {
            throw RecipeBook.recipesError(error)
        }
    }

    /// Refuses the whole import, before anything is written, when a recipe is larger than
    /// ``RecipeLimits`` allow (whatever the source: a set file or another app's store); the
    /// error names the set and the recipe.
    static func checkLimits(_ sets: [SampleSet]) throws(RecipesError) {
        for set in sets { try set.checkLimits() }
    }

    /// Refuses `recipe` of the set named `setName` when it is larger than ``RecipeLimits``
    /// allow; the error names the set and the recipe.
    static func checkLimits(_ recipe: SampleRecipe, inSet setName: String) throws(RecipesError) {
        do {
            try RecipeLimits.check(fields: [("name", recipe.name), ("type", recipe.type), ("overview", recipe.overview),
                                            ("prep time", recipe.prepTime), ("instructions", recipe.instructions)])
            for line in recipe.ingredients {
                try RecipeLimits.check(fields: [("ingredient amount", line.amount), ("ingredient", line.name)])
            }
            try RecipeLimits.check(image: recipe.image?.data)
            try RecipeLimits.check(image: recipe.thumbnail?.data)
        } catch {
            guard case .invalidValue(let field, let reason) = error else { throw error }
            throw .invalidValue(field: "\(field) of recipe \"\(recipe.name.prefix(80))\" in set \"\(setName)\"", reason: reason)
        }
    }

    // MARK: - Staging

    /// One batch of a set's recipes as objects, each recipe with its ingredients and
    /// picture; the types go with the first batch.
    struct Batch {
        let objects: SampleObjects
        let includesTypes: Bool
        let excluded: Set<String>

        init(_ set: any ImportableSampleSet, recipes: [SampleRecipe], firstIndex: Int, excluding: Set<String>) {
            objects = SampleObjects(setName: set.name, types: set.types, recipes: recipes, firstIndex: firstIndex)
            includesTypes = firstIndex == 0
            var excluded = excluding
            if !excluding.isEmpty {
                for recipe in objects.recipes where excluding.contains(recipe.id) {
                    excluded.formUnion(recipe.ingredientIDs)
                    if let imageID = recipe.imageID { excluded.insert(imageID) }
                }
            }
            self.excluded = excluded
        }
    }

    /// Applies one batch to the context (unsaved) and records the differences in `plan`;
    /// returns how many objects of the set it covered. `listedTypes` carries the types the
    /// plan already lists from earlier batches (later batches touch them again through
    /// their recipes).
    private func stage(_ batch: Batch, into plan: inout ImportPlan, listedTypes: inout Set<String>,
                       typeLists: inout PendingTypeLists) throws -> Int {
        let objects = batch.objects
        let excluded = batch.excluded
        let types = batch.includesTypes ? objects.types : []
        let recipes = objects.recipes
        let images = objects.images
        let ingredients = objects.ingredients
        // Which of the batch's objects the store already has, read in bulk.
        var ids = types.map { ObjectID(entityName: RecipeType.entityName, referenceString: $0.id) }
        ids += recipes.map { ObjectID(entityName: Recipe.entityName, referenceString: $0.id) }
        ids += images.map { ObjectID(entityName: Image.entityName, referenceString: $0.id) }
        ids += ingredients.map { ObjectID(entityName: Ingredient.entityName, referenceString: $0.id) }
        let existing = try context.existingObjects(with: ids)
        func fetchOrInsert(_ entity: String, id: String) throws -> (ManagedObject, Bool) {
            let objectID = ObjectID(entityName: entity, referenceString: id)
            if let found = existing[objectID] { return (found, found.isInserted) }
            if context.registeredObject(for: objectID) != nil { return try self.fetchOrInsert(entity, id: id) }
            return (try context.insert(entity, id: id), true)
        }
        var listed = Set<String>()
        func note(_ object: ManagedObject, isNew: Bool, name: String, keys: Set<String>) {
            if isNew || !keys.isEmpty { listed.insert(object.objectID.referenceString) }
            self.note(object, isNew: isNew, name: name, keys: keys, into: &plan)
        }

        for record in types {
            guard !excluded.contains(record.id) else { plan.skipped += 1; continue }
            let (object, isNew) = try fetchOrInsert(RecipeType.entityName, id: record.id)
            var keys = Set<String>()
            try assign(.string(record.name), to: "name", of: object, keys: &keys)
            note(object, isNew: isNew, name: record.name, keys: keys)
            if isNew || !keys.isEmpty { listedTypes.insert(record.id) }
        }
        var recipeObjects: [String: ManagedObject] = [:]
        for record in recipes {
            guard !excluded.contains(record.id) else { plan.skipped += 1; continue }
            let (object, isNew) = try fetchOrInsert(Recipe.entityName, id: record.id)
            recipeObjects[record.id] = object
            var keys = Set<String>()
            try assign(.string(record.name), to: "name", of: object, keys: &keys)
            try assign(record.overview.map(AttributeValue.string) ?? .null, to: "overview", of: object, keys: &keys)
            try assign(record.prepTime.map(AttributeValue.string) ?? .null, to: "prepTime", of: object, keys: &keys)
            try assign(record.instructions.map(AttributeValue.string) ?? .null, to: "instructions", of: object, keys: &keys)
            try assign(record.thumbnail.map { .data($0.data) } ?? .null, to: "thumbnailImage", of: object, keys: &keys)
            if object.entity.attribute(named: "createdAt") != nil {
                try assign(.date(record.creationDate), to: "createdAt", of: object, keys: &keys)
            }
            // The type's side is written once at the end (``writeTypeLists``).
            let type = record.typeID.flatMap { excluded.contains($0) ? nil : ObjectID(entityName: RecipeType.entityName, referenceString: $0) }
            let currentType = try object.objectIDs(forKey: "type").first
            if currentType != type {
                try object.setPrimitiveObjectID(type, forKey: "type")
                typeLists.move(object.objectID, from: currentType, to: type)
                keys.insert("type")
            }
            note(object, isNew: isNew, name: record.name, keys: keys)
        }
        for record in images {
            guard !excluded.contains(record.id), let recipe = recipeObjects[record.recipeID] else { plan.skipped += 1; continue }
            let (object, isNew) = try fetchOrInsert(Image.entityName, id: record.id)
            var keys = Set<String>()
            try assign(.data(record.image.data), to: "image", of: object, keys: &keys)
            try link(object, "recipe", to: recipe, keys: &keys)
            note(object, isNew: isNew, name: try recipe.string("name") ?? "", keys: keys)
        }
        for record in ingredients {
            guard !excluded.contains(record.id), let recipe = recipeObjects[record.recipeID] else { plan.skipped += 1; continue }
            let (object, isNew) = try fetchOrInsert(Ingredient.entityName, id: record.id)
            var keys = Set<String>()
            try assign(.string(record.name), to: "name", of: object, keys: &keys)
            try assign(record.amount.map(AttributeValue.string) ?? .null, to: "amount", of: object, keys: &keys)
            try assign(.int(Int64(record.displayOrder)), to: "displayOrder", of: object, keys: &keys)
            try link(object, "recipe", to: recipe, keys: &keys)
            note(object, isNew: isNew, name: record.name, keys: keys)
        }
        // Objects changed only through an inverse relationship (a type gaining a recipe
        // again) are written too: report them as updates.
        for object in context.updatedObjects.sorted(by: { $0.objectID < $1.objectID })
        where !listed.contains(object.objectID.referenceString) && !listedTypes.contains(object.objectID.referenceString) {
            try noteInverseUpdate(of: object, keys: object.changedKeys.sorted(), into: &plan)
        }
        return types.count + recipes.count + images.count + ingredients.count
    }

    /// Writes the recipe lists of the types the import linked recipes to or away from
    /// (``PendingTypeLists``), calling `saved` after each type, and reports each type whose
    /// list changed as updated unless the plan lists it already.
    /// - Throws: ``ObjectGraphError/objectNotFound(_:)`` when a recipe was linked to a type
    ///   that is not in the store.
    private func writeTypeLists(_ lists: PendingTypeLists, into plan: inout ImportPlan, listedTypes: Set<String>,
                                saved: () throws -> Void) throws {
        guard !lists.isEmpty,
              let inverse = context.coordinator.model.entity(named: Recipe.entityName)?.relationship(named: "type")?.inverseName else { return }
        for typeID in lists.types {
            let type = try context.existingObject(with: typeID)
            let current = try type.objectIDs(forKey: inverse)
            let list = lists.list(of: typeID, from: current)
            guard list != current else { continue }
            try type.setPrimitiveObjectIDs(list, forKey: inverse)
            if !listedTypes.contains(typeID.referenceString) && !type.isInserted {
                try noteInverseUpdate(of: type, keys: [inverse], into: &plan)
            }
            try saved()
        }
    }

    /// Reports `object`, counted as unchanged when it was staged, as updated through an
    /// inverse relationship (a type gaining a recipe) in the `keys` given.
    private func noteInverseUpdate(of object: ManagedObject, keys: [String], into plan: inout ImportPlan) throws {
        if listsChanges {
            let name = object.entity.attribute(named: "name") != nil ? (try object.string("name") ?? "") : ""
            plan.changes.append(ImportChange(action: .update, entity: object.entity.name, id: object.objectID.referenceString,
                                             name: name, keys: keys))
        } else {
            plan.unlistedChanges[.update, default: [:]][object.entity.name, default: 0] += 1
        }
        plan.unchanged = max(0, plan.unchanged - 1)
    }

    /// The stored object with this ID, or a new one inserted with it.
    private func fetchOrInsert(_ entity: String, id: String) throws -> (ManagedObject, Bool) {
        let objectID = ObjectID(entityName: entity, referenceString: id)
        if let registered = context.registeredObject(for: objectID), !registered.isDeleted {
            return (registered, registered.isInserted)
        }
        do {
            return (try context.existingObject(with: objectID), false)
        } catch ObjectGraphError.objectNotFound {
            return (try context.insert(entity, id: id), true)
        }
    }

    /// Sets an attribute only when its value differs, so unchanged objects stay clean.
    private func assign(_ value: AttributeValue, to key: String, of object: ManagedObject, keys: inout Set<String>) throws {
        let current = try object.value(forKey: key)
        guard current != value else { return }
        if object.isInserted && value.isNull { return }
        try object.setValue(value, forKey: key)
        keys.insert(key)
    }

    /// Points a to-one relationship at `destination` when it does not already.
    private func link(_ object: ManagedObject, _ key: String, to destination: ManagedObject?, keys: inout Set<String>) throws {
        guard try object.objectIDs(forKey: key).first != destination?.objectID else { return }
        try object.setObject(destination, forKey: key)
        keys.insert(key)
    }

    private func note(_ object: ManagedObject, isNew: Bool, name: String, keys: Set<String>, into plan: inout ImportPlan) {
        guard isNew || !keys.isEmpty else {
            plan.unchanged += 1
            return
        }
        let action: ImportChange.Action = isNew ? .create : .update
        guard listsChanges else {
            plan.unlistedChanges[action, default: [:]][object.entity.name, default: 0] += 1
            return
        }
        plan.changes.append(ImportChange(action: action, entity: object.entity.name, id: object.objectID.referenceString,
                                         name: name, keys: keys.sorted()))
    }
}
