import DocumentStore
import Foundation
import DocumentFormat

/// Walks a parsed sample set file, collecting every problem with its JSON path and building
/// the ``SampleSet`` from the values that are fine. Internal to ``SampleSetLoader``.
struct SampleSetValidator {
    static let setKeys = ["name", "types", "recipes"]
    static let recipeKeys = ["name", "type", "overview", "prepTime", "instructions", "ingredients", "image", "thumbnail"]
    static let ingredientKeys = ["amount", "name"]
    static let nonEmptyString = "a non-empty string"

    let baseDirectory: URL
    let maximumImageBytes: Int
    private(set) var issues: [SampleSetIssue] = []

    init(baseDirectory: URL, maximumImageBytes: Int) {
        self.baseDirectory = baseDirectory
        self.maximumImageBytes = maximumImageBytes
    }

    mutating func sampleSet(from tree: JSONValue) -> SampleSet? {
        let root = JSONPath.root
        guard let members = object(tree, at: root, allowed: Self.setKeys) else { return nil }
        let name = requiredName(members, at: root)
        let types = declaredTypes(members["types"], at: root.appending("types"))

        var recipes: [SampleRecipe] = []
        let recipesPath = root.appending("recipes")
        switch members["recipes"] {
        case nil:
            report(recipesPath, .missingKey(expected: "an array of recipes"))
        case .array(let elements):
            if elements.isEmpty { report(recipesPath, .noRecipes) }
            var firstIndexForName: [String: Int] = [:]
            for (index, element) in elements.enumerated() {
                let path = recipesPath.appending(index)
                guard let recipe = self.recipe(element, at: path) else { continue }
                if let first = firstIndexForName[recipe.name] {
                    report(path.appending("name"), .duplicateName(recipe.name, firstPath: recipesPath.appending(first).appending("name").description))
                } else {
                    firstIndexForName[recipe.name] = index
                }
                recipes.append(recipe)
            }
        case let other?:
            report(recipesPath, .wrongType(expected: "an array of recipes", found: other.kindDescription))
        }
        guard let name else { return nil }
        return SampleSet(name: name, types: types, recipes: recipes)
    }

    mutating func declaredTypes(_ value: JSONValue?, at path: JSONPath) -> [String] {
        switch value {
        case nil, .null?:
            return []
        case .array(let elements)?:
            var types: [String] = []
            var firstIndex: [String: Int] = [:]
            for (index, element) in elements.enumerated() {
                let elementPath = path.appending(index)
                guard let type = nonEmptyString(element, at: elementPath) else { continue }
                if let first = firstIndex[type] {
                    report(elementPath, .duplicateName(type, firstPath: path.appending(first).description))
                } else {
                    firstIndex[type] = index
                    types.append(type)
                }
            }
            return types
        case let other?:
            report(path, .wrongType(expected: "an array of type names", found: other.kindDescription))
            return []
        }
    }

    mutating func recipe(_ tree: JSONValue, at path: JSONPath) -> SampleRecipe? {
        guard let members = object(tree, at: path, allowed: Self.recipeKeys) else { return nil }
        let name = requiredName(members, at: path)
        let type = optionalString(members, "type", at: path, allowEmpty: false)
        let overview = optionalString(members, "overview", at: path, allowEmpty: true)
        let prepTime = optionalString(members, "prepTime", at: path, allowEmpty: true)
        let instructions = optionalString(members, "instructions", at: path, allowEmpty: true)

        var ingredients: [SampleIngredient] = []
        let ingredientsPath = path.appending("ingredients")
        switch members["ingredients"] {
        case nil, .null?:
            break
        case .array(let elements)?:
            for (index, element) in elements.enumerated() {
                if let ingredient = ingredient(element, at: ingredientsPath.appending(index)) {
                    ingredients.append(ingredient)
                }
            }
        case let other?:
            report(ingredientsPath, .wrongType(expected: "an array of ingredients", found: other.kindDescription))
        }

        let image = self.image(members, "image", at: path)
        let thumbnail = self.image(members, "thumbnail", at: path)
        guard let name else { return nil }
        return SampleRecipe(
            name: name, type: type, overview: overview, prepTime: prepTime, instructions: instructions,
            ingredients: ingredients, image: image, thumbnail: thumbnail)
    }

    private mutating func ingredient(_ tree: JSONValue, at path: JSONPath) -> SampleIngredient? {
        guard let members = object(tree, at: path, allowed: Self.ingredientKeys) else { return nil }
        let amount = optionalString(members, "amount", at: path, allowEmpty: true)
        guard let name = requiredName(members, at: path) else { return nil }
        return SampleIngredient(amount: amount, name: name)
    }

    // MARK: - Values

    private mutating func report(_ path: JSONPath?, _ problem: SampleSetProblem) {
        issues.append(SampleSetIssue(path: path, problem: problem))
    }

    /// The members of an object, reporting a non-object and every key not in `allowed`.
    private mutating func object(_ tree: JSONValue, at path: JSONPath, allowed: [String]) -> [String: JSONValue]? {
        guard case .object(let members) = tree else {
            report(path, .wrongType(expected: "an object", found: tree.kindDescription))
            return nil
        }
        for key in members.keys.sorted() where !allowed.contains(key) {
            report(path.appending(key), .unknownKey(allowed: allowed))
        }
        return members
    }

    private mutating func requiredName(_ members: [String: JSONValue], at path: JSONPath) -> String? {
        guard let value = members["name"] else {
            report(path.appending("name"), .missingKey(expected: Self.nonEmptyString))
            return nil
        }
        return nonEmptyString(value, at: path.appending("name"))
    }

    mutating func nonEmptyString(_ tree: JSONValue, at path: JSONPath) -> String? {
        guard case .string(let text) = tree else {
            report(path, .wrongType(expected: Self.nonEmptyString, found: tree.kindDescription))
            return nil
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            report(path, .wrongType(expected: Self.nonEmptyString, found: text.isEmpty ? "an empty string" : "only white space"))
            return nil
        }
        return text
    }

    private mutating func optionalString(
        _ members: [String: JSONValue], _ key: String, at path: JSONPath, allowEmpty: Bool
    ) -> String? {
        let keyPath = path.appending(key)
        switch members[key] {
        case nil, .null?:
            return nil
        case .string(let text)? where allowEmpty:
            return text
        case let value?:
            if allowEmpty {
                report(keyPath, .wrongType(expected: "a string", found: value.kindDescription))
                return nil
            }
            return nonEmptyString(value, at: keyPath)
        }
    }

    /// Reads the image file named by `members[key]`, if any, reporting every way it can be
    /// unusable.
    private mutating func image(_ members: [String: JSONValue], _ key: String, at path: JSONPath) -> SampleImage? {
        let keyPath = path.appending(key)
        guard let relative = optionalString(members, key, at: path, allowEmpty: false) else { return nil }
        let components = relative.split(separator: "/", omittingEmptySubsequences: true)
        if relative.hasPrefix("/") || relative.hasPrefix("~") || components.contains("..") {
            report(keyPath, .imagePathOutsideSet(relative))
            return nil
        }
        let url = baseDirectory.appendingPathComponent(relative)
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            report(keyPath, .unreadableImage(path: relative, reason: "no such file at \(url.path)"))
            return nil
        }
        if isDirectory.boolValue {
            report(keyPath, .unreadableImage(path: relative, reason: "it is a directory"))
            return nil
        }
        if let size = (try? manager.attributesOfItem(atPath: url.path))?[.size] as? NSNumber,
           size.intValue > maximumImageBytes {
            report(keyPath, .imageTooLarge(path: relative, bytes: size.intValue, limit: maximumImageBytes))
            return nil
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            report(keyPath, .unreadableImage(path: relative, reason: SampleSetLoader.readFailure(url, error)))
            return nil
        }
        guard let image = SampleImage(data: data) else {
            report(keyPath, .unsupportedImage(path: relative))
            return nil
        }
        return image
    }
}
