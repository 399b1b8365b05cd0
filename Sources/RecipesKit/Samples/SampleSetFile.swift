import DocumentFormat
public import Foundation

/// A JSON sample set file that was checked whole and is read again a batch of recipes at a
/// time while it is imported, so importing a large set holds one batch of it: never the
/// file's text, its JSON tree or all its recipes at once.
///
/// ``SampleSetLoader/checkedSet(contentsOf:)`` makes one after reading the file through
/// once with `JSONStreamReader`, validating each recipe (its images included) as
/// ``SampleSetLoader/load(contentsOf:)`` does and keeping only the set's name, its types,
/// a hash of each recipe name (for uniqueness) and counts. Anything wrong or unusual on that reading
/// sends the loader to its whole-file reading, which gives the same set or the same error
/// as before. The second reading, during the import, validates each recipe again; if the
/// file changed in between so that it no longer matches, the import fails with
/// ``SampleSetProblem/changedWhileImporting`` and, being one transaction, writes nothing.
public struct SampleSetFile: ImportableSampleSet {
    /// The set file.
    public let fileURL: URL
    /// The set's name.
    public let name: String
    /// Every recipe type, declared ones first, then the recipes' own in first-seen order.
    public let types: [String]
    /// The number of recipes.
    public let recipeCount: Int
    /// Types, recipes, images and ingredients.
    public let objectCount: Int
    /// Image files larger than this are refused.
    let maximumImageBytes: Int
    /// The first recipe that ``RecipeLimits`` refuse, found while checking.
    let firstRecipeOverLimits: SampleRecipe?

    /// Reads the file at `fileURL` through once, checking it; `nil` when it is not a valid
    /// set in the plain shape the reader streams (the loader then reads it whole, which names
    /// every problem).
    static func check(_ fileURL: URL, maximumImageBytes: Int) -> SampleSetFile? {
        var recipeTypes = RecipeTypes()
        var recipeCount = 0
        var otherObjects = 0
        var overLimits: SampleRecipe?
        let outline: Outline
        do {
            outline = try read(fileURL, maximumImageBytes: maximumImageBytes) { _, recipe in
                recipeTypes.note(recipe)
                recipeCount += 1
                otherObjects += recipe.ingredients.count + (recipe.image == nil ? 0 : 1)
                if overLimits == nil, (try? SampleImporter.checkLimits(recipe, inSet: "")) == nil { overLimits = recipe }
            }
        } catch {
            return nil
        }
        let types = recipeTypes.after(outline.declaredTypes)
        return SampleSetFile(
            fileURL: fileURL, name: outline.name, types: types, recipeCount: recipeCount,
            objectCount: types.count + recipeCount + otherObjects, maximumImageBytes: maximumImageBytes,
            firstRecipeOverLimits: overLimits)
    }

    /// Throws the limit error of the first recipe over ``RecipeLimits``, if any.
    public func checkLimits() throws(RecipesError) {
        if let firstRecipeOverLimits { try SampleImporter.checkLimits(firstRecipeOverLimits, inSet: name) }
    }

    /// Reads the file again, handing its recipes to `body` `size` at a time. Throws
    /// ``SampleSetError`` (``SampleSetProblem/changedWhileImporting``) or ``RecipesError``
    /// when the file no longer matches what was checked.
    public func forEachBatch(of size: Int, _ body: (_ firstIndex: Int, _ recipes: [SampleRecipe]) throws -> Void) throws {
        let size = max(1, size)
        var batch: [SampleRecipe] = []
        batch.reserveCapacity(min(size, recipeCount))
        var firstIndex = 0
        var recipeTypes = RecipeTypes()
        let outline: Outline
        do {
            outline = try Self.read(fileURL, maximumImageBytes: maximumImageBytes) { index, recipe in
                guard index < recipeCount else { throw JSONStreamError.unexpected("more recipes than checked", offset: 0) }
                try SampleImporter.checkLimits(recipe, inSet: name)
                recipeTypes.note(recipe)
                batch.append(recipe)
                if batch.count == size {
                    try body(firstIndex, batch)
                    firstIndex += batch.count
                    batch.removeAll(keepingCapacity: true)
                }
            }
        } catch is JSONStreamError {
            throw changed
        }
        guard outline.name == name, firstIndex + batch.count == recipeCount, recipeTypes.after(outline.declaredTypes) == types else {
            throw changed
        }
        if !batch.isEmpty { try body(firstIndex, batch) }
    }

    private var changed: SampleSetError {
        SampleSetError(fileURL: fileURL, issues: [SampleSetIssue(path: nil, problem: .changedWhileImporting)])
    }

    // MARK: - Reading

    /// What a reading finds besides the recipes.
    struct Outline {
        /// `name`.
        var name: String
        /// `types`, as declared.
        var declaredTypes: [String]
    }

    /// The recipes' types in first-seen order, to follow the declared ones as ``SampleSet``
    /// orders them.
    struct RecipeTypes {
        private var seen = Set<String>()
        private var inOrder: [String] = []

        mutating func note(_ recipe: SampleRecipe) {
            if let type = recipe.type, seen.insert(type).inserted { inOrder.append(type) }
        }

        func after(_ declared: [String]) -> [String] {
            let declaredSet = Set(declared)
            return declared + inOrder.filter { !declaredSet.contains($0) }
        }
    }

    /// Reads the set file at `url` once, handing each valid recipe and its index to `body`.
    /// Throws `JSONStreamError` at the first thing that is not a plainly valid set: a
    /// syntax error, a problem the validator reports, a duplicate recipe name, a repeated
    /// root key; rethrows what `body` throws.
    static func read(_ url: URL, maximumImageBytes: Int, recipe body: (Int, SampleRecipe) throws -> Void) throws -> Outline {
        let reader = try JSONStreamReader(url: url)
        var validator = SampleSetValidator(baseDirectory: url.deletingLastPathComponent(), maximumImageBytes: maximumImageBytes)
        func valid<T>(_ value: T?) throws(JSONStreamError) -> T {
            guard validator.issues.isEmpty, let value else { throw .unexpected("not a valid set", offset: 0) }
            return value
        }
        var keys = Set<String>()
        var name: String?
        var declaredTypes: [String] = []
        // Hashes, not names, keep a large set's reading small; two names with one hash
        // (as for a name used twice) send the loader to the whole-file reading, which tells.
        var recipeNameHashes = Set<Int>()
        try reader.beginObject()
        while let key = try reader.nextKey() {
            guard keys.insert(key).inserted else { throw JSONStreamError.unexpected("a repeated key", offset: 0) }
            let path = JSONPath.root.appending(key)
            switch key {
            case "name":
                name = try valid(validator.nonEmptyString(try reader.nextValue(), at: path))
            case "types":
                declaredTypes = try valid(validator.declaredTypes(try reader.nextValue(), at: path))
            case "recipes":
                guard try reader.beginArray() else { throw JSONStreamError.unexpected("recipes is not an array", offset: 0) }
                var index = 0
                while let element = try reader.nextElement() {
                    let recipe = try valid(validator.recipe(element, at: path.appending(index)))
                    guard recipeNameHashes.insert(recipe.name.hashValue).inserted else {
                        throw JSONStreamError.unexpected("a duplicate recipe name (or hash)", offset: 0)
                    }
                    try body(index, recipe)
                    index += 1
                }
                guard index > 0 else { throw JSONStreamError.unexpected("no recipes", offset: 0) }
            default:
                throw JSONStreamError.unexpected("an unknown key", offset: 0)
            }
        }
        try reader.finish()
        guard let name, keys.contains("recipes") else { throw JSONStreamError.unexpected("a missing key", offset: 0) }
        return Outline(name: name, declaredTypes: declaredTypes)
    }
}
