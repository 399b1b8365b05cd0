/// Why a recipes operation failed. Every message is one line naming the cause and the fix,
/// fit for a command's exit message; nothing has been written when one is thrown.
///
/// Two errors are equal when their cases and payloads are; store errors compare their
/// messages and their causes' types and messages.
public enum RecipesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A recipe that more than one object matches, with the candidates to choose from.
    public struct Candidate: Sendable, Equatable, Codable {
        /// The recipe's name.
        public var name: String
        /// Its document ID (always unique).
        public var id: String

        /// Makes a candidate.
        public init(name: String, id: String) {
            self.name = name
            self.id = id
        }
    }

    /// The bundled object model could not be loaded (a broken installation).
    case modelUnavailable(path: String, reason: String)
    /// No recipe has this name or ID.
    case recipeNotFound(String)
    /// Several recipes have this name.
    case ambiguousRecipe(String, candidates: [Candidate])
    /// A recipe with this name already exists.
    case duplicateRecipeName(String, existingID: String)
    /// The recipe has no ingredient of this name.
    case ingredientNotFound(recipe: String, ingredient: String)
    /// An `--ingredient` argument that is not `AMOUNT|NAME`.
    case malformedIngredient(String, reason: String)
    /// A value that breaks a rule of the model (empty name, too many ingredients).
    case invalidValue(field: String, reason: String)
    /// A file that cannot be read.
    case unreadableFile(path: String, reason: String)
    /// A file that is not a PNG or JPEG image.
    case invalidImage(path: String)
    /// An object of another entity where one of `expected` was needed.
    case wrongEntity(expected: String, got: String)
    /// The object graph or its store refused the operation: one line naming the cause and the
    /// fix, and the error underneath when there is one (an `ObjectGraph.ObjectGraphError`,
    /// a `DocumentStoreError`, a file-system error), kept so callers can switch on it;
    /// ``rootCause`` digs through the layers to the error that started it.
    case store(String, cause: (any Error & Sendable)? = nil)

    /// One line: what is wrong and how to fix it.
    public var description: String {
        switch self {
        case .modelUnavailable(let path, let reason):
            "cannot load the recipes model at \(path): \(reason); reinstall the program"
        case .recipeNotFound(let query):
            "no recipe named or with ID \"\(query)\"; run `recipes list` to see the recipes"
        case .ambiguousRecipe(let query, let candidates):
            "\"\(query)\" matches \(candidates.count) recipes: "
                + candidates.map { "\($0.name) (\($0.id))" }.joined(separator: ", ") + "; give the ID instead"
        case .duplicateRecipeName(let name, let id):
            "a recipe named \"\(name)\" already exists (\(id)); choose another name or edit that one"
        case .ingredientNotFound(let recipe, let ingredient):
            "recipe \"\(recipe)\" has no ingredient named \"\(ingredient)\"; run `recipes show` to see its ingredients"
        case .malformedIngredient(let text, let reason):
            "malformed ingredient \"\(text)\": \(reason); write it as \"AMOUNT|NAME\", e.g. \"2 cups|flour\""
        case .invalidValue(let field, let reason):
            "invalid \(field): \(reason)"
        case .unreadableFile(let path, let reason):
            "cannot read \(path): \(reason); check the path and its permissions"
        case .invalidImage(let path):
            "\(path) is not a PNG or JPEG image; give a .png or .jpg file"
        case .wrongEntity(let expected, let got):
            "expected a \(expected) object but got a \(got)"
        case .store(let message, _):
            message
        }
    }

    /// Whether two errors are the same (store causes compared by type and message, since
    /// an arbitrary error cannot be compared otherwise).
    public static func == (lhs: RecipesError, rhs: RecipesError) -> Bool {
        switch (lhs, rhs) {
        case let (.modelUnavailable(a, b), .modelUnavailable(c, d)): a == c && b == d
        case let (.recipeNotFound(a), .recipeNotFound(b)): a == b
        case let (.ambiguousRecipe(a, b), .ambiguousRecipe(c, d)): a == c && b == d
        case let (.duplicateRecipeName(a, b), .duplicateRecipeName(c, d)): a == c && b == d
        case let (.ingredientNotFound(a, b), .ingredientNotFound(c, d)): a == c && b == d
        case let (.malformedIngredient(a, b), .malformedIngredient(c, d)): a == c && b == d
        case let (.invalidValue(a, b), .invalidValue(c, d)): a == c && b == d
        case let (.unreadableFile(a, b), .unreadableFile(c, d)): a == c && b == d
        case let (.invalidImage(a), .invalidImage(b)): a == b
        case let (.wrongEntity(a, b), .wrongEntity(c, d)): a == c && b == d
        case let (.store(a, x), .store(b, y)): a == b && Self.sameCause(x, y)
        default: false
        }
    }

    /// Whether two optional causes have the same type and message.
    private static func sameCause(_ a: (any Error)?, _ b: (any Error)?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (a?, b?): type(of: a) == type(of: b) && String(describing: a) == String(describing: b)
        default: false
        }
    }
}
