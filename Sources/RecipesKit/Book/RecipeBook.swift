import DocumentStore
import Foundation
public import ObjectGraph
import DocumentIncrementalStore
import DocumentFormat

/// The recipe book as the `recipes` program uses it: find, list, show, add, edit and delete
/// recipes in one context.
///
/// Every write checks all its input first and then saves once: it either changes the store
/// completely or, on any error, rolls the context back and leaves the store as it was.
public struct RecipeBook {
    /// The context the book reads and writes.
    public let context: ObjectContext

    /// Where the types' names are kept between books, if anywhere.
    public let typeNameCache: TypeNameCache?

    /// A book over `context`; `typeNameCache`, shared by the books of a long-running
    /// process, spares each list page reading the types' documents again.
    public init(context: ObjectContext, typeNameCache: TypeNameCache? = nil) {
        self.context = context
        self.typeNameCache = typeNameCache
    }

    // MARK: - Pieces shared by reading and writing

    /// The recipes whose name is exactly `name` (an indexed look-up).
    func recipes(exactlyNamed name: String) throws(RecipesError) -> [Recipe] {
        try graph { try context.fetch(FetchDescriptor<Recipe>(predicate: #Predicate { $0.name == name })) }
    }

    /// The type to link a recipe to: an existing one of that name, else a new one.
    func typeForWriting(_ name: String) throws -> RecipeType {
        if let existing = try recipeType(named: name) { return existing }
        let type = try RecipeType.insert(into: context)
        type.name = name
        return type
    }

    /// Runs `body`, typing its errors.
    func graph<T>(_ body: () throws -> T) throws(RecipesError) -> T {
        do { return try body() } catch { throw Self.recipesError(error) }
    }

    static func recipesError(_ error: any Error) -> RecipesError {
        if let error = error as? RecipesError { return error }
        return .store("\(error)", cause: error)
    }

    /// `text` ignoring case and accents, as the store's folded indexes key it.
    static func folded(_ text: String) -> String {
        TextFolding.fold(text)
    }

    /// `text`, or `nil` when it is missing or only white space and line breaks. Checked on
    /// the Unicode scalars' own White_Space property: Foundation's trimming bridges through
    /// `NSString`, whose first use costs every `list --search` a tenth of a millisecond.
    static func nonEmpty(_ text: String?) -> String? {
        guard let text, text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else { return nil }
        return text
    }

    static func checkedName(_ name: String) throws(RecipesError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidValue(field: "name", reason: "a recipe needs a name that is not empty") }
        let length = trimmed.count
        guard length <= RecipeLimits.maximumNameLength else {
            throw .invalidValue(field: "name", reason: "it is \(length) characters long; at most \(RecipeLimits.maximumNameLength) are accepted, so that it fits a list, a page title and a file name")
        }
        return trimmed
    }

    static func checkIngredientCount(_ count: Int) throws(RecipesError) {
        guard count <= Int(Int16.max) else {
            throw .invalidValue(field: "ingredients", reason: "\(count) lines is more than the \(Int16.max) a recipe can hold")
        }
    }

    static func sorted(_ recipes: [Recipe], by sort: RecipeSort) throws -> [Recipe] {
        let keyed = recipes.map { recipe in
            (recipe: recipe, name: folded(recipe.name), type: recipe.type?.name.map(folded),
             minutes: recipe.prepTime.flatMap(PrepTimeParser.minutes(in:)))
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
