import Foundation
import ObjectGraph

/// The recipe book as the `recipes` program uses it: find, list, show, add, edit and delete
/// recipes in one context.
///
/// Every write checks all its input first and then saves once: it either changes the store
/// completely or, on any error, rolls the context back and leaves the store as it was.
public struct RecipeBook {
    /// The context the book reads and writes.
    public let context: ObjectContext

    /// A book over `context`.
    public init(context: ObjectContext) {
        self.context = context
    }

    // MARK: - Reading

    /// Every recipe, in store order.
    public func allRecipes() throws(RecipesError) -> [Recipe] {
        try graph { try context.fetch(FetchRequest(entityName: Recipe.entityName)).map(Recipe.init(unchecked:)) }
    }

    /// The recipes a query selects, in its order.
    public func recipes(matching query: RecipeQuery) throws(RecipesError) -> [Recipe] {
        try graph {
            var request = FetchRequest(entityName: Recipe.entityName)
            if let type = query.type {
                request.predicate = try ObjectPredicate(format: "type.name ==[cd] %@", type)
            }
            var recipes = try context.fetch(request).map(Recipe.init(unchecked:))
            if let search = query.search, !search.isEmpty {
                recipes = try recipes.filter { try Self.recipe($0, contains: search) }
            }
            return try Self.sorted(recipes, by: query.sort)
        }
    }

    /// The summaries of the recipes a query selects.
    public func list(_ query: RecipeQuery = RecipeQuery()) throws(RecipesError) -> [RecipeSummary] {
        let recipes = try recipes(matching: query)
        return try graph { try recipes.map(summary(of:)) }
    }

    /// The one recipe `text` names: its document ID, else its exact name, else its name
    /// ignoring case and accents.
    /// - Throws: ``RecipesError/recipeNotFound(_:)``, or
    ///   ``RecipesError/ambiguousRecipe(_:candidates:)`` listing every match.
    public func recipe(named text: String) throws(RecipesError) -> Recipe {
        let recipes = try allRecipes()
        let matches: [Recipe] = try graph {
            if let byID = recipes.first(where: { $0.documentID == text }) { return [byID] }
            let exact = try recipes.filter { try $0.name == text }
            if !exact.isEmpty { return exact }
            return try recipes.filter { try $0.name.compare(text, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame }
        }
        switch matches.count {
        case 0:
            throw .recipeNotFound(text)
        case 1:
            return matches[0]
        default:
            let candidates = try graph {
                try matches.map { RecipesError.Candidate(name: try $0.name, id: $0.documentID) }.sorted { $0.id < $1.id }
            }
            throw .ambiguousRecipe(text, candidates: candidates)
        }
    }

    /// Everything about one recipe.
    public func details(of recipe: Recipe) throws(RecipesError) -> RecipeDetails {
        try graph {
            RecipeDetails(
                id: recipe.documentID, name: try recipe.name, type: try recipe.type?.name,
                overview: try recipe.overview, prepTime: try recipe.prepTime, instructions: try recipe.instructions,
                ingredients: try recipe.ingredients.map {
                    RecipeDetails.Line(id: $0.documentID, amount: try $0.amount, name: try $0.name, displayOrder: try $0.displayOrder)
                },
                image: try recipe.image?.data.map(ImageInfo.init(data:)),
                thumbnail: try recipe.thumbnailImage.map(ImageInfo.init(data:)))
        }
    }

    /// The list line of one recipe.
    public func summary(of recipe: Recipe) throws(RecipesError) -> RecipeSummary {
        try graph {
            RecipeSummary(
                id: recipe.documentID, name: try recipe.name, type: try recipe.type?.name, prepTime: try recipe.prepTime,
                overview: try recipe.overview, ingredientCount: try recipe.object.objectIDs(forKey: "ingredients").count,
                hasImage: try recipe.image != nil)
        }
    }

    /// Every recipe type name with its number of recipes, by name; types of the same name
    /// count as one.
    public func types() throws(RecipesError) -> [RecipeTypeSummary] {
        try graph {
            var counts: [String: Int] = [:]
            var display: [String: String] = [:]
            for type in try context.fetch(FetchRequest(entityName: RecipeType.entityName)).map(RecipeType.init(unchecked:)) {
                let name = try type.name ?? ""
                let key = Self.folded(name)
                display[key] = display[key].map { min($0, name) } ?? name
                counts[key, default: 0] += try type.object.objectIDs(forKey: "recipes").count
            }
            return counts.keys.sorted().map { RecipeTypeSummary(name: display[$0] ?? $0, recipeCount: counts[$0] ?? 0) }
        }
    }

    /// The type called `name` (ignoring case and accents; the lowest ID when several are),
    /// or `nil`.
    public func recipeType(named name: String) throws(RecipesError) -> RecipeType? {
        try graph {
            let key = Self.folded(name)
            return try context.fetch(FetchRequest(entityName: RecipeType.entityName)).map(RecipeType.init(unchecked:))
                .filter { Self.folded(try $0.name ?? "") == key }
                .min { $0.objectID < $1.objectID }
        }
    }

    /// Counts of the objects in the store, by entity.
    public func counts() throws(RecipesError) -> [String: Int] {
        try graph {
            var result: [String: Int] = [:]
            for entity in [Recipe.entityName, Ingredient.entityName, RecipeType.entityName, Image.entityName] {
                result[entity] = try context.count(for: FetchRequest(entityName: entity))
            }
            return result
        }
    }

    // MARK: - Writing

    /// Creates a recipe from `draft` and saves it.
    /// - Throws: ``RecipesError/invalidValue(field:reason:)`` for an empty name,
    ///   ``RecipesError/duplicateRecipeName(_:existingID:)`` when the name is taken.
    @discardableResult
    public func add(_ draft: RecipeDraft) throws(RecipesError) -> RecipeDetails {
        let name = try Self.checkedName(draft.name)
        if let existing = try allRecipes().first(where: { (try? $0.name) == name }) {
            throw .duplicateRecipeName(name, existingID: existing.documentID)
        }
        try Self.checkIngredientCount(draft.ingredients.count)
        let recipe: Recipe = try write {
            let recipe = try Recipe.insert(into: context)
            try recipe.setName(name)
            try recipe.setOverview(Self.nonEmpty(draft.overview))
            try recipe.setPrepTime(Self.nonEmpty(draft.prepTime))
            try recipe.setInstructions(Self.nonEmpty(draft.instructions))
            if let type = Self.nonEmpty(draft.type) { try recipe.setType(try typeForWriting(type)) }
            for line in draft.ingredients { try recipe.addIngredient(name: line.name, amount: line.amount) }
            if let data = draft.image {
                let image = try Image.insert(into: context)
                try image.setData(data)
                try recipe.setImage(image)
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
        let currentName = try graph { try recipe.name }
        if let newName = edit.name {
            let name = try Self.checkedName(newName)
            if let other = try allRecipes().first(where: { $0.objectID != recipe.objectID && (try? $0.name) == name }) {
                throw .duplicateRecipeName(name, existingID: other.documentID)
            }
        }
        let lines = try graph { try recipe.ingredients }
        var removals: [Ingredient] = []
        for name in edit.removeIngredients {
            let key = Self.folded(name.trimmingCharacters(in: .whitespaces))
            let matching = try graph { try lines.filter { Self.folded(try $0.name ?? "") == key } }
            guard !matching.isEmpty else { throw .ingredientNotFound(recipe: currentName, ingredient: name) }
            removals += matching
        }
        try Self.checkIngredientCount(lines.count - removals.count + edit.ingredients.count)
        try write {
            if let name = edit.name { try recipe.setName(try Self.checkedName(name)) }
            if let overview = edit.overview { try recipe.setOverview(Self.nonEmpty(overview)) }
            if let prepTime = edit.prepTime { try recipe.setPrepTime(Self.nonEmpty(prepTime)) }
            if let instructions = edit.instructions { try recipe.setInstructions(Self.nonEmpty(instructions)) }
            if let type = edit.type {
                try recipe.setType(try Self.nonEmpty(type).map { try typeForWriting($0) })
            }
            for line in removals { try recipe.removeIngredient(line) }
            for line in edit.ingredients {
                let key = Self.folded(line.name)
                if let existing = try recipe.ingredients.first(where: { Self.folded(try $0.name ?? "") == key }) {
                    try existing.setAmount(line.amount)
                } else {
                    try recipe.addIngredient(name: line.name, amount: line.amount)
                }
            }
            if edit.clearImage {
                try recipe.image?.delete()
                try recipe.setThumbnailImage(nil)
            }
            if let data = edit.image {
                if let image = try recipe.image {
                    try image.setData(data)
                } else {
                    let image = try Image.insert(into: context)
                    try image.setData(data)
                    try recipe.setImage(image)
                }
                try recipe.setThumbnailImage(nil)
            }
        }
        return try details(of: recipe)
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

    // MARK: - Pieces

    /// The type to link a recipe to: an existing one of that name, else a new one.
    private func typeForWriting(_ name: String) throws -> RecipeType {
        if let existing = try recipeType(named: name) { return existing }
        let type = try RecipeType.insert(into: context)
        try type.setName(name)
        return type
    }

    private func graph<T>(_ body: () throws -> T) throws(RecipesError) -> T {
        do { return try body() } catch { throw Self.recipesError(error) }
    }

    static func recipesError(_ error: any Error) -> RecipesError {
        if let error = error as? RecipesError { return error }
        return .store("\(error)")
    }

    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }

    static func checkedName(_ name: String) throws(RecipesError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidValue(field: "name", reason: "a recipe needs a name that is not empty") }
        return trimmed
    }

    static func checkIngredientCount(_ count: Int) throws(RecipesError) {
        guard count <= Int(Int16.max) else {
            throw .invalidValue(field: "ingredients", reason: "\(count) lines is more than the \(Int16.max) a recipe can hold")
        }
    }

    static func recipe(_ recipe: Recipe, contains text: String) throws -> Bool {
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        var fields: [String?] = [try recipe.name, try recipe.overview, try recipe.type?.name]
        fields += try recipe.object.objects(forKey: "ingredients").map { try $0.string("name") }
        return fields.contains { $0?.range(of: text, options: options) != nil }
    }

    static func sorted(_ recipes: [Recipe], by sort: RecipeSort) throws -> [Recipe] {
        let keyed = try recipes.map { recipe in
            (recipe: recipe, name: folded(try recipe.name), type: try recipe.type?.name.map(folded),
             minutes: try recipe.prepTime.flatMap(PrepTimeParser.minutes(in:)))
        }
        func byName(_ a: (recipe: Recipe, name: String, type: String?, minutes: Double?),
                    _ b: (recipe: Recipe, name: String, type: String?, minutes: Double?)) -> Bool {
            (a.name, a.recipe.documentID) < (b.name, b.recipe.documentID)
        }
        return keyed.sorted { a, b in
            switch sort {
            case .name:
                return byName(a, b)
            case .type:
                if a.type != b.type {
                    guard let x = a.type else { return false }
                    guard let y = b.type else { return true }
                    return x < y
                }
                return byName(a, b)
            case .prepTime:
                if a.minutes != b.minutes {
                    guard let x = a.minutes else { return false }
                    guard let y = b.minutes else { return true }
                    return x < y
                }
                return byName(a, b)
            }
        }.map(\.recipe)
    }
}
