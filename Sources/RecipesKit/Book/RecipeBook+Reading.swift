import DocumentStore
import Foundation
import ObjectGraph
import DocumentIncrementalStore
import DocumentFormat

/// Reading: finding, listing, counting and showing recipes and their types.
extension RecipeBook {
    /// Every recipe, in store order.
    public func allRecipes() throws(RecipesError) -> [Recipe] {
        try graph { try context.fetch(FetchRequest(entityName: Recipe.entityName)).map(Recipe.init(unchecked:)) }
    }

    /// The recipes a query selects, in its order, paged by its limit and offset.
    ///
    /// Each step is a fetch the store answers from its indexes: the type by a folded-name
    /// look-up; the search by text indexes on names, overviews and ingredient names, and by
    /// the type index for the types whose names hold the text (matched among the few type
    /// names, read as values); the name order by a folded-name index (reading only the
    /// page); the type order one type at a time. Search results come by relevance unless a sort is asked for: a name
    /// that starts with the text, then a name that contains it, a type, an ingredient, the
    /// overview; ties by name. The prep-time order parses free text, so it reads every
    /// recipe the query selects and sorts them in memory.
    public func recipes(matching query: RecipeQuery) throws(RecipesError) -> [Recipe] {
        try recipes(matching: query, typeNames: nil)
    }

    /// ``recipes(matching:)`` ranking a search by `typeNames` when the caller has read them
    /// already, else reading them itself.
    func recipes(matching query: RecipeQuery, typeNames: [ObjectID: String]?) throws(RecipesError) -> [Recipe] {
        try Self.checkPage(limit: query.limit, offset: query.offset)
        if query.limit == 0 { return [] }
        return try graph {
            let search = query.search.flatMap(Self.nonEmpty)
            let typeNames = try typeNames ?? (search == nil ? [:] : self.typeNames())
            let predicate = try Self.predicate(for: query, typeNames: { typeNames })
            switch (query.sort, search) {
            case (nil, let search?):
                return try page(try ranked(try fetchRecipes(predicate), search: search, typeNames: typeNames), query)
            case (.name?, _), (nil, nil):
                return try fetchRecipes(predicate, sortedByName: true, limit: query.limit, offset: query.offset)
            case (.type?, _):
                return try byType(predicate, query)
            case (.prepTime?, _):
                return try page(try Self.sorted(try fetchRecipes(predicate), by: .prepTime), query)
            }
        }
    }

    /// The summaries of the recipes a query selects.
    public func list(_ query: RecipeQuery = RecipeQuery()) throws(RecipesError) -> [RecipeSummary] {
        var summaries: [RecipeSummary] = []
        try forEachSummaryPage(query, pageSize: 4096) { summaries += $0 }
        return summaries
    }

    /// The summaries of the recipes a query selects, in its order, handed to `body` at most
    /// `pageSize` at a time, so that printing a large book never holds all of it.
    ///
    /// In the name order without a search, the recipes are not read as objects: their
    /// summaries come from a values fetch (`ObjectContext.fetchValues(_:_:)`) reading the
    /// listed fields alone, in index order, streamed; the book's context is left as it was.
    /// A search by relevance and the type and prep-time orders come as one page, as
    /// ``list(_:)`` gives them.
    public func forEachSummaryPage(_ query: RecipeQuery = RecipeQuery(), pageSize: Int = 500,
                                   _ body: (_ page: [RecipeSummary]) -> Void) throws(RecipesError) {
        try forEachPage(query, pageSize: pageSize, reading: Self.summaryProperties, made: Self.summary(of:typeNames:),
                        fromObject: Self.summary(of:typeNames:), body)
    }

    /// The cards of the recipes a query selects, in its order: ``list(_:)`` reading only
    /// what a card shows, so a page of the web app's grid parses no ingredient lists.
    public func cards(_ query: RecipeQuery = RecipeQuery()) throws(RecipesError) -> [RecipeCard] {
        var cards: [RecipeCard] = []
        try forEachPage(query, pageSize: 4096, reading: Self.cardProperties, made: Self.card(of:typeNames:),
                        fromObject: { RecipeCard(try Self.summary(of: $0, typeNames: $1)) }) { cards += $0 }
        return cards
    }

    /// The rows of the recipes a query selects, made by `made` from a values fetch of
    /// `properties` in the name order without a search, or by `fromObject` from the
    /// recipes themselves otherwise; handed to `body` at most `pageSize` at a time. The type
    /// names are read once for all the rows.
    func forEachPage<Row>(_ query: RecipeQuery, pageSize: Int, reading properties: [String],
                                  made: (ObjectValues, [ObjectID: String]) -> Row,
                                  fromObject: (Recipe, [ObjectID: String]) throws -> Row,
                                  _ body: (_ page: [Row]) -> Void) throws(RecipesError) {
        try Self.checkPage(limit: query.limit, offset: query.offset)
        guard (query.sort ?? .name) == .name, query.search.flatMap(Self.nonEmpty) == nil, pageSize > 0 else {
            let typeNames = try graph { try self.typeNames() }
            let recipes = try recipes(matching: query, typeNames: typeNames)
            body(try graph { try recipes.map { try fromObject($0, typeNames) } })
            return
        }
        if query.limit == 0 { return body([]) }
        try graph {
            let typeNames = try self.typeNames()
            let request = FetchRequest(entityName: Recipe.entityName, predicate: try Self.predicate(for: query, typeNames: self.typeNames),
                                       sortDescriptors: [Self.byName], fetchLimit: query.limit, fetchOffset: query.offset,
                                       propertiesToFetch: properties)
            var page: [Row] = []
            var handedOne = false
            try context.fetchValues(request) { values in
                page.append(made(values, typeNames))
                guard page.count >= pageSize else { return }
                body(page)
                handedOne = true
                page.removeAll(keepingCapacity: true)
            }
            if !page.isEmpty || !handedOne { body(page) }
        }
    }

    /// What a summary reads of a recipe.
    static let summaryProperties = ["name", "prepTime", "overview", "type", "ingredients", "image"]

    /// What a card reads of a recipe.
    static let cardProperties = ["name", "prepTime", "type", "image"]

    /// The card of a recipe read by a values fetch of ``cardProperties``.
    static func card(of values: ObjectValues, typeNames: [ObjectID: String]) -> RecipeCard {
        RecipeCard(id: values.objectID.referenceString, name: values.attributes["name"]?.stringValue ?? "",
                   type: values.toOne["type"].flatMap { typeNames[$0] }, prepTime: values.attributes["prepTime"]?.stringValue,
                   hasImage: values.toOne["image"] != nil)
    }

    /// The list line of a recipe read by a values fetch of ``summaryProperties``; the type's
    /// name comes from `typeNames` (a type not in the store yet, as during a sync, shows none).
    static func summary(of values: ObjectValues, typeNames: [ObjectID: String]) -> RecipeSummary {
        RecipeSummary(id: values.objectID.referenceString, name: values.attributes["name"]?.stringValue ?? "",
                      type: values.toOne["type"].flatMap { typeNames[$0] }, prepTime: values.attributes["prepTime"]?.stringValue,
                      overview: values.attributes["overview"]?.stringValue, ingredientCount: values.toMany["ingredients"]?.count ?? 0,
                      hasImage: values.toOne["image"] != nil)
    }

    /// Every recipe type's name by its ID, read as values (a type's document also lists all
    /// its recipes, which this leaves unread), or from ``typeNameCache`` while the store has
    /// not changed.
    func typeNames() throws -> [ObjectID: String] {
        let read = { () throws -> [ObjectID: String] in
            var names: [ObjectID: String] = [:]
            try context.fetchValues(FetchRequest(entityName: RecipeType.entityName, propertiesToFetch: ["name"])) { values in
                names[values.objectID] = values.attributes["name"]?.stringValue
            }
            return names
        }
        return try typeNameCache.map { try $0.names(in: context, read) } ?? read()
    }

    /// How many recipes a query selects, before paging (counted in the store: from its
    /// indexes, or by reading only the documents a search can match).
    public func count(matching query: RecipeQuery) throws(RecipesError) -> Int {
        try graph { try context.count(for: FetchRequest(entityName: Recipe.entityName, predicate: try Self.predicate(for: query, typeNames: self.typeNames))) }
    }

    /// The predicate of a query's type filter and search, `nil` when it has neither.
    ///
    /// A search matches the type names among `typeNames` (called only for a search): a book
    /// has a handful of types, read as values, so the recipes of the matching types are an
    /// index look-up on their type, instead of a text search of the types whose documents,
    /// which list every recipe of the type, would then be read.
    static func predicate(for query: RecipeQuery, typeNames: () throws -> [ObjectID: String]) throws -> ObjectPredicate? {
        var predicates: [ObjectPredicate] = []
        if let type = query.type { predicates.append(try ObjectPredicate(format: "type.name ==[cd] %@", type)) }
        if let search = query.search.flatMap(nonEmpty) {
            let needle = folded(search)
            let types = try typeNames().filter { folded($0.value).contains(needle) }.keys.sorted { $0.referenceString < $1.referenceString }
            var clauses = [try ObjectPredicate(format: "name CONTAINS[cd] %@ OR overview CONTAINS[cd] %@ OR ANY ingredients.name CONTAINS[cd] %@",
                                               search, search, search)]
            if !types.isEmpty { clauses.append(try ObjectPredicate(format: "type IN %@", types)) }
            predicates.append(clauses.count == 1 ? clauses[0] : .or(clauses))
        }
        return predicates.isEmpty ? nil : (predicates.count == 1 ? predicates[0] : .and(predicates))
    }

    /// The one recipe `text` names: its document ID, else its exact name, else its name
    /// ignoring case and accents. Each is one indexed look-up.
    /// - Throws: ``RecipesError/recipeNotFound(_:)``, or
    ///   ``RecipesError/ambiguousRecipe(_:candidates:)`` listing every match.
    public func recipe(named text: String) throws(RecipesError) -> Recipe {
        let matches: [Recipe] = try graph {
            if let byID = try recipe(withID: text) { return [byID] }
            let exact = try recipes(exactlyNamed: text)
            if !exact.isEmpty { return exact }
            return try fetchRecipes(try ObjectPredicate(format: "name ==[cd] %@", text))
        }
        switch matches.count {
        case 0:
            throw .recipeNotFound(text)
        case 1:
            return matches[0]
        default:
            let candidates = try graph {
                matches.map { RecipesError.Candidate(name: $0.name, id: $0.documentID) }.sorted { $0.id < $1.id }
            }
            throw .ambiguousRecipe(text, candidates: candidates)
        }
    }

    /// The recipe whose document ID is `id`, or `nil` when there is none (a web page's
    /// address names a recipe by its ID, never by a name that may be ambiguous).
    public func recipe(id: String) throws(RecipesError) -> Recipe? {
        try graph { try recipe(withID: id) }
    }

    /// The recipe whose document ID is `id`, or `nil`.
    func recipe(withID id: String) throws -> Recipe? {
        do {
            let object = try context.existingObject(with: ObjectID(entityName: Recipe.entityName, referenceString: id))
            return object.isDeleted ? nil : Recipe(unchecked: object)
        } catch ObjectGraphError.objectNotFound {
            return nil
        }
    }

    /// Recipes matching `predicate`: in store order, or by name ignoring case and accents
    /// (then by store order) with the page applied in the store.
    func fetchRecipes(_ predicate: ObjectPredicate?, sortedByName: Bool = false,
                              limit: Int? = nil, offset: Int = 0) throws -> [Recipe] {
        var request = FetchRequest(entityName: Recipe.entityName, predicate: predicate)
        if sortedByName { request.sortDescriptors = [Self.byName] }
        request.fetchLimit = limit
        request.fetchOffset = offset
        return try context.fetch(request).map(Recipe.init(unchecked:))
    }

    /// The name order: ignoring case and accents, as a person reads a list.
    static let byName = FetchSortDescriptor("name", caseInsensitive: true, diacriticInsensitive: true)

    /// The type order, one type at a time: types by name (types of the same name as one),
    /// each type's recipes by name, untyped recipes last. Whole types before the offset are
    /// skipped by counting them in the index.
    func byType(_ predicate: ObjectPredicate?, _ query: RecipeQuery) throws -> [Recipe] {
        var result: [Recipe] = []
        var skip = query.offset
        var clauses: [ObjectPredicate] = try typeGroups().map { try ObjectPredicate(format: "type IN %@", $0.ids) }
        clauses.append(try ObjectPredicate(format: "type == nil"))
        for clause in clauses {
            let remaining = query.limit.map { $0 - result.count }
            if remaining == 0 { break }
            let combined: ObjectPredicate = predicate.map { .and([$0, clause]) } ?? clause
            if skip > 0 {
                let count = try context.count(for: FetchRequest(entityName: Recipe.entityName, predicate: combined))
                if skip >= count { skip -= count; continue }
            }
            result += try fetchRecipes(combined, sortedByName: true, limit: remaining, offset: skip)
            skip = 0
        }
        return result
    }

    /// Search results by relevance (see ``recipes(matching:)``); the types' names come from
    /// `typeNames`, as values, as `details(of:)` reads them: a type's document lists every
    /// recipe of the type.
    ///
    /// A match that is not by name or type is by an ingredient or the overview: one whose
    /// overview does not contain the text matched by an ingredient, and only when some
    /// overview does are the recipes with a matching ingredient looked up.
    func ranked(_ recipes: [Recipe], search: String, typeNames: [ObjectID: String]) throws -> [Recipe] {
        var byIngredient: Set<ObjectID>?
        let needle = Self.folded(search)
        let keyed = try recipes.map { recipe -> (rank: Int, name: String, recipe: Recipe) in
            let name = Self.folded(recipe.name)
            let rank: Int
            if name.hasPrefix(needle) { rank = 0 }
            else if name.contains(needle) { rank = 1 }
            else if try recipe.object.objectIDs(forKey: "type").first.flatMap({ typeNames[$0] })
                .map({ Self.folded($0).contains(needle) }) ?? false { rank = 2 }
            else if !(recipe.overview.map { Self.folded($0).contains(needle) } ?? false) { rank = 3 }
            else {
                if byIngredient == nil {
                    byIngredient = Set(try context.fetchObjectIDs(FetchRequest(
                        entityName: Recipe.entityName, predicate: try ObjectPredicate(format: "ANY ingredients.name CONTAINS[cd] %@", search))))
                }
                rank = byIngredient?.contains(recipe.objectID) == true ? 3 : 4
            }
            return (rank, name, recipe)
        }
        return keyed.sorted { ($0.rank, $0.name, $0.recipe.documentID) < ($1.rank, $1.name, $1.recipe.documentID) }.map(\.recipe)
    }

    /// The page of an in-memory ordered list.
    func page(_ recipes: [Recipe], _ query: RecipeQuery) throws -> [Recipe] {
        let rest = recipes.dropFirst(query.offset)
        return Array(query.limit.map { rest.prefix($0) } ?? rest)
    }

    /// Refuses a negative limit or offset.
    static func checkPage(limit: Int?, offset: Int) throws(RecipesError) {
        if let limit, limit < 0 { throw .invalidValue(field: "limit", reason: "\(limit) is negative; give 0 or more") }
        if offset < 0 { throw .invalidValue(field: "offset", reason: "\(offset) is negative; give 0 or more") }
    }

    /// Everything about one recipe.
    public func details(of recipe: Recipe) throws(RecipesError) -> RecipeDetails {
        try graph {
            var notes: String?
            var notesProblem: String?
            do {
                notes = try recipe.object.value(forKey: "notes", as: String.self)
            } catch let error as EncryptedAttributeError {
                // Not shown, but the rest of the recipe is; the caller reports the problem.
                notesProblem = error.description
            }
            return RecipeDetails(
                // The type's name as a value: its document also lists every recipe of the
                // type, which a fault would parse, so `show` would grow with the book.
                id: recipe.documentID, name: recipe.name,
                type: try recipe.object.objectIDs(forKey: "type").first.flatMap { try typeNames()[$0] },
                overview: recipe.overview, prepTime: recipe.prepTime, instructions: recipe.instructions,
                ingredients: recipe.ingredients.map {
                    RecipeDetails.Line(id: $0.documentID, amount: $0.amount, name: $0.name, displayOrder: Int($0.displayOrder ?? 0))
                },
                image: recipe.image?.data.map(ImageInfo.init(data:)),
                thumbnail: recipe.thumbnailImage.map(ImageInfo.init(data:)),
                notes: notes, notesEncrypted: notesProblem != nil, notesProblem: notesProblem)
        }
    }

    /// The list line of one recipe.
    public func summary(of recipe: Recipe) throws(RecipesError) -> RecipeSummary {
        try graph { try Self.summary(of: recipe, typeNames: try typeNames()) }
    }

    /// The list line of one recipe, its type's name from `typeNames`: as a value, since the
    /// type's document also lists every recipe of the type, which a fault would parse.
    static func summary(of recipe: Recipe, typeNames: [ObjectID: String]) throws -> RecipeSummary {
        RecipeSummary(
            id: recipe.documentID, name: recipe.name,
            type: try recipe.object.objectIDs(forKey: "type").first.flatMap { typeNames[$0] }, prepTime: recipe.prepTime,
            overview: recipe.overview, ingredientCount: try recipe.object.objectIDs(forKey: "ingredients").count,
            hasImage: !(try recipe.object.objectIDs(forKey: "image")).isEmpty)
    }

    /// Every recipe type name with its number of recipes, by name; types of the same name
    /// count as one. Each count comes from the recipes' type index, not from reading the
    /// types' recipe lists.
    public func types() throws(RecipesError) -> [RecipeTypeSummary] {
        try graph {
            try typeGroups().map { group in
                let count = try context.count(for: FetchRequest(entityName: Recipe.entityName,
                                                                predicate: try ObjectPredicate(format: "type IN %@", group.ids)))
                return RecipeTypeSummary(name: group.display, recipeCount: count)
            }
        }
    }

    /// The recipe types as people see them: types of the same name (ignoring case and
    /// accents) as one, shown by their lowest spelling, in name order.
    func typeGroups() throws -> [(display: String, ids: [ObjectID])] {
        var groups: [String: (display: String, ids: [ObjectID])] = [:]
        // Only names: a type's document also lists every recipe of the type.
        for (id, name) in try typeNames() {
            let key = Self.folded(name)
            let display = groups[key].map { min($0.display, name) } ?? name
            groups[key] = (display, (groups[key]?.ids ?? []) + [id])
        }
        return groups.keys.sorted().map { groups[$0]! }
    }

    /// The type called `name` (ignoring case and accents; the lowest ID when several are),
    /// or `nil`: one folded-name look-up.
    public func recipeType(named name: String) throws(RecipesError) -> RecipeType? {
        try graph {
            try context.fetch(FetchRequest(entityName: RecipeType.entityName,
                                           predicate: try ObjectPredicate(format: "name ==[cd] %@", name)))
                .map(RecipeType.init(unchecked:))
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
}
