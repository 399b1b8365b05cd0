import DocumentStore
import Foundation
import ObjectGraph
import RecipeImages
import DocumentIncrementalStore
import DocumentFormat

/// Writing: adding, editing and deleting recipes, each checked first and saved once.
extension RecipeBook {
    /// Creates a recipe from `draft` and saves it.
    /// - Throws: ``RecipesError/invalidValue(field:reason:)`` for an empty name,
    ///   ``RecipesError/duplicateRecipeName(_:existingID:)`` when the name is taken.
    @discardableResult
    public func add(_ draft: RecipeDraft) throws(RecipesError) -> RecipeDetails {
        let name = try Self.checkedName(draft.name)
        try RecipeLimits.check(fields: [("name", name), ("type", draft.type), ("overview", draft.overview),
                                        ("prep time", draft.prepTime), ("instructions", draft.instructions),
                                        ("notes", draft.notes)])
        for line in draft.ingredients { try RecipeLimits.check(fields: [("ingredient amount", line.amount), ("ingredient", line.name)]) }
        try RecipeLimits.check(image: draft.image)
        if let existing = try recipes(exactlyNamed: name).first {
            throw .duplicateRecipeName(name, existingID: existing.documentID)
        }
        try Self.checkIngredientCount(draft.ingredients.count)
        let recipe: Recipe = try write {
            let recipe = try Recipe.insert(into: context)
            recipe.name = name
            recipe.overview = Self.nonEmpty(draft.overview)
            recipe.prepTime = Self.nonEmpty(draft.prepTime)
            recipe.instructions = Self.nonEmpty(draft.instructions)
            if let notes = Self.nonEmpty(draft.notes) { recipe.notes = notes }
            if let type = Self.nonEmpty(draft.type) { recipe.type = try typeForWriting(type) }
            for line in draft.ingredients { try recipe.addIngredient(name: line.name, amount: line.amount) }
            if let data = draft.image {
                let image = try Image.insert(into: context)
                image.data = data
                recipe.image = image
                recipe.thumbnailImage = Self.thumbnail(of: data)
            }
            return recipe
        }
        return try details(of: recipe)
    }

    /// Applies `edit` to `recipe` and saves.
    /// - Throws: ``RecipesError/ingredientNotFound(recipe:ingredient:)`` for a line to
    ///   remove that the recipe lacks, and the errors of ``add(_:)`` for the name.
    @discardableResult
    public func edit(_ recipe: Recipe, _ edit: RecipeEdit) throws(RecipesError) -> RecipeDetails {
        let currentName = try graph { recipe.name }
        if let newName = edit.name {
            let name = try Self.checkedName(newName)
            if let other = try recipes(exactlyNamed: name).first(where: { $0.objectID != recipe.objectID }) {
                throw .duplicateRecipeName(name, existingID: other.documentID)
            }
        }
        try RecipeLimits.check(image: edit.image)
        let lines = try graph { recipe.ingredients }
        var removals: [Ingredient] = []
        for name in edit.removeIngredients {
            let key = Self.folded(name.trimmingCharacters(in: .whitespaces))
            let matching = try graph { lines.filter { Self.folded($0.name ?? "") == key } }
            guard !matching.isEmpty else { throw .ingredientNotFound(recipe: currentName, ingredient: name) }
            removals += matching
        }
        if let list = edit.ingredientList {
            try Self.checkIngredientCount(list.count)
            for line in list where line.name.trimmingCharacters(in: .whitespaces).isEmpty {
                throw .malformedIngredient("\(line.amount ?? "")|", reason: "the name is empty")
            }
        } else {
            try Self.checkIngredientCount(lines.count - removals.count + edit.ingredients.count)
        }
        // The recipe's text as it will be: each field edited or as it is.
        let text = try graph { () throws -> [(name: String, text: String?)] in
            [("name", edit.name ?? currentName), ("type", edit.type ?? recipe.type?.name),
             ("overview", edit.overview ?? recipe.overview), ("prep time", edit.prepTime ?? recipe.prepTime),
             ("instructions", edit.instructions ?? recipe.instructions), ("notes", edit.notes)]
        }
        // Notes left as they are were checked when they were written (reading them would
        // need the password); ingredients are documents of their own.
        try RecipeLimits.check(fields: text)
        for line in edit.ingredients + (edit.ingredientList ?? []) {
            try RecipeLimits.check(fields: [("ingredient amount", line.amount), ("ingredient", line.name)])
        }
        try write {
            if let name = edit.name { recipe.name = try Self.checkedName(name) }
            if let overview = edit.overview { recipe.overview = Self.nonEmpty(overview) }
            if let prepTime = edit.prepTime { recipe.prepTime = Self.nonEmpty(prepTime) }
            if let instructions = edit.instructions { recipe.instructions = Self.nonEmpty(instructions) }
            if let notes = edit.notes { recipe.notes = Self.nonEmpty(notes) }
            if let type = edit.type {
                recipe.type = try Self.nonEmpty(type).map { try typeForWriting($0) }
            }
            if let list = edit.ingredientList { try Self.replaceIngredients(of: recipe, with: list, present: lines) }
            for line in removals { try recipe.removeIngredient(line) }
            for line in edit.ingredients {
                let key = Self.folded(line.name)
                if let existing = recipe.ingredients.first(where: { Self.folded($0.name ?? "") == key }) {
                    existing.amount = line.amount
                } else {
                    try recipe.addIngredient(name: line.name, amount: line.amount)
                }
            }
            if edit.clearImage {
                if let image = recipe.image { try image.delete() } else { recipe.image = nil }
                recipe.thumbnailImage = nil
            }
            if let data = edit.image {
                if let image = recipe.image {
                    image.data = data
                } else {
                    let image = try Image.insert(into: context)
                    image.data = data
                    recipe.image = image
                }
                recipe.thumbnailImage = Self.thumbnail(of: data)
            }
        }
        return try details(of: recipe)
    }

    /// The thumbnail kept beside a new photo, so that lists (the web app's grid) never ship
    /// the full photo: an upright JPEG of at most 320 × 320 pixels. `nil` when the bytes do
    /// not decode (a store may hold any bytes a sync brought; the commands check a photo
    /// before it reaches the book).
    static func thumbnail(of photo: Data) -> Data? {
        try? Photo.thumbnail(of: photo)
    }

    /// Makes `list` the recipe's ingredient lines, in order: a present line of the same name
    /// (ignoring case and accents) is kept, with the new amount and position, so an edit
    /// that moves a line does not replace it; the others are added, and the present lines
    /// not in `list` are deleted.
    static func replaceIngredients(of recipe: Recipe, with list: [IngredientInput], present: [Ingredient]) throws {
        var unused = present
        for (position, input) in list.enumerated() {
            let key = folded(input.name.trimmingCharacters(in: .whitespaces))
            let line: Ingredient
            if let index = unused.firstIndex(where: { folded($0.name ?? "") == key }) {
                line = unused.remove(at: index)
                if line.name != input.name { line.name = input.name }
            } else {
                guard let context = recipe.object.managedObjectContext else { throw ObjectGraphError.objectNotFound(recipe.objectID) }
                line = try Ingredient.insert(into: context)
                line.name = input.name
                recipe.addToIngredientSet(line)
            }
            if line.amount != input.amount { line.amount = input.amount }
            if line.displayOrder != Int16(position) { line.displayOrder = Int16(position) }
        }
        for line in unused { try line.delete() }
    }

    /// Deletes `recipe` with its ingredients and picture, and saves.
    public func delete(_ recipe: Recipe) throws(RecipesError) {
        try write { try recipe.delete() }
    }

    /// Runs `body` then saves; on any error rolls the context back and rethrows it as a
    /// ``RecipesError``.
    @discardableResult
    public func write<T>(_ body: () throws -> T) throws(RecipesError) -> T {
        do {
            let result = try body()
            try context.save()
            return result
        } catch {
            context.rollback()
            throw Self.recipesError(error)
        }
    }
}
