import Foundation
import ObjectGraph

/// Writes sample sets into the object graph with their deterministic IDs (``SampleObjects``),
/// so importing twice, or on two machines, yields the same documents and revisions.
///
/// The whole import is staged in the context and saved once: either every object of every
/// set is written or, on any error, nothing is. Objects already in the store are updated
/// only where their values differ from the set's, so a repeated import writes nothing.
public struct SampleImporter {
    /// The context the import is staged in.
    public let context: ObjectContext

    /// An importer working in `context` (use a context of its own: a failed or dry-run
    /// import rolls it back).
    public init(context: ObjectContext) {
        self.context = context
    }

    /// Imports `sets` and saves; returns what changed.
    /// - Parameter excluding: document IDs to leave out (with a recipe, its ingredients and
    ///   picture go too); seeding passes the samples the user deleted.
    @discardableResult
    public func importSets(_ sets: [SampleSet], excluding: Set<String> = []) throws(RecipesError) -> ImportPlan {
        do {
            let plan = try stage(sets, excluding: excluding)
            try context.save()
            return plan
        } catch {
            context.rollback()
            throw RecipeBook.recipesError(error)
        }
    }

    /// What ``importSets(_:excluding:)`` would change, without writing anything.
    public func plan(_ sets: [SampleSet], excluding: Set<String> = []) throws(RecipesError) -> ImportPlan {
        defer { context.rollback() }
        do {
            return try stage(sets, excluding: excluding)
        } catch {
            throw RecipeBook.recipesError(error)
        }
    }

    // MARK: - Staging

    /// Applies every set to the context (unsaved) and records the differences.
    private func stage(_ sets: [SampleSet], excluding: Set<String>) throws -> ImportPlan {
        var plan = ImportPlan(sets: sets.map(\.name))
        for set in sets {
            let objects = SampleObjects(set)
            // Which of the set's objects the store already has, read in bulk.
            var ids = objects.types.map { ObjectID(entityName: RecipeType.entityName, referenceString: $0.id) }
            ids += objects.recipes.map { ObjectID(entityName: Recipe.entityName, referenceString: $0.id) }
            ids += objects.images.map { ObjectID(entityName: Image.entityName, referenceString: $0.id) }
            ids += objects.ingredients.map { ObjectID(entityName: Ingredient.entityName, referenceString: $0.id) }
            let existing = try context.existingObjects(with: ids)
            func fetchOrInsert(_ entity: String, id: String) throws -> (ManagedObject, Bool) {
                let objectID = ObjectID(entityName: entity, referenceString: id)
                if let found = existing[objectID] { return (found, found.isInserted) }
                if context.registeredObject(for: objectID) != nil { return try self.fetchOrInsert(entity, id: id) }
                return (try context.insert(entity, referenceString: id), true)
            }
            var excluded = excluding
            for recipe in objects.recipes where excluded.contains(recipe.id) {
                excluded.formUnion(recipe.ingredientIDs)
                if let imageID = recipe.imageID { excluded.insert(imageID) }
            }
            for record in objects.types {
                guard !excluded.contains(record.id) else { plan.skipped += 1; continue }
                let (object, isNew) = try fetchOrInsert(RecipeType.entityName, id: record.id)
                var keys = Set<String>()
                try assign(.string(record.name), to: "name", of: object, keys: &keys)
                note(object, isNew: isNew, name: record.name, keys: keys, into: &plan)
            }
            var recipeObjects: [String: ManagedObject] = [:]
            for record in objects.recipes {
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
                let type = try record.typeID.flatMap { excluded.contains($0) ? nil : try context.object(with: ObjectID(entityName: RecipeType.entityName, referenceString: $0)) }
                try link(object, "type", to: type, keys: &keys)
                note(object, isNew: isNew, name: record.name, keys: keys, into: &plan)
            }
            for record in objects.images {
                guard !excluded.contains(record.id), let recipe = recipeObjects[record.recipeID] else { plan.skipped += 1; continue }
                let (object, isNew) = try fetchOrInsert(Image.entityName, id: record.id)
                var keys = Set<String>()
                try assign(.data(record.image.data), to: "image", of: object, keys: &keys)
                try link(object, "recipe", to: recipe, keys: &keys)
                note(object, isNew: isNew, name: try recipe.string("name") ?? "", keys: keys, into: &plan)
            }
            for record in objects.ingredients {
                guard !excluded.contains(record.id), let recipe = recipeObjects[record.recipeID] else { plan.skipped += 1; continue }
                let (object, isNew) = try fetchOrInsert(Ingredient.entityName, id: record.id)
                var keys = Set<String>()
                try assign(.string(record.name), to: "name", of: object, keys: &keys)
                try assign(record.amount.map(AttributeValue.string) ?? .null, to: "amount", of: object, keys: &keys)
                try assign(.int(Int64(record.displayOrder)), to: "displayOrder", of: object, keys: &keys)
                try link(object, "recipe", to: recipe, keys: &keys)
                note(object, isNew: isNew, name: record.name, keys: keys, into: &plan)
            }
        }
        // Objects changed only through an inverse relationship (a type gaining a recipe
        // again) are written too: report them as updates.
        let listed = Set(plan.changes.map(\.id))
        for object in context.updatedObjects.sorted(by: { $0.objectID < $1.objectID })
        where !listed.contains(object.objectID.referenceString) {
            let name = object.entity.attribute(named: "name") != nil ? (try object.string("name") ?? "") : ""
            plan.changes.append(ImportChange(action: .update, entity: object.entity.name, id: object.objectID.referenceString,
                                             name: name, keys: object.changedKeys.sorted()))
            plan.unchanged = max(0, plan.unchanged - 1)
        }
        return plan
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
            return (try context.insert(entity, referenceString: id), true)
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
        if isNew {
            plan.changes.append(ImportChange(action: .create, entity: object.entity.name, id: object.objectID.referenceString, name: name, keys: keys.sorted()))
        } else if !keys.isEmpty {
            plan.changes.append(ImportChange(action: .update, entity: object.entity.name, id: object.objectID.referenceString, name: name, keys: keys.sorted()))
        } else {
            plan.unchanged += 1
        }
    }
}
