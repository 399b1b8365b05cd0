import Crypto
import Foundation
import RecipesKit

/// The add and edit form of a recipe: what it shows, what a browser posted back, and the
/// messages to show next to its fields. The checks are the book's own (`RecipeBook.add`,
/// `edit`), so the web app refuses exactly what `recipes add` and `edit` refuse, with the
/// same sentences; only what a form alone can get wrong (a row with an amount and no name)
/// is checked here.
struct RecipeForm: Sendable {
    /// One ingredient row.
    struct Line: Sendable, Equatable {
        /// How much (may be empty).
        var amount: String
        /// What (empty for a blank row).
        var name: String
    }

    var name = ""
    var type = ""
    var overview = ""
    var prepTime = ""
    var instructions = ""
    /// The private notes; `nil` when the store is locked (the field is not shown and the
    /// notes are left as they are).
    var notes: String?
    var lines: [Line] = []
    /// A photo chosen in the form.
    var photo: Data?
    /// Whether the recipe has a photo now (edit).
    var hasPhoto = false
    /// Whether "remove the photo" was ticked.
    var removePhoto = false
    /// For an edit: the version of the recipe the form was filled from (``version(of:)``),
    /// so a save over a change made meanwhile is noticed.
    var version: String?
    /// For an add: the form's one-time ID, so a form posted twice makes one recipe.
    var submission: String?
    /// Messages by field (`name`, `type`, `overview`, `prepTime`, `instructions`, `notes`,
    /// `photo`, `ingredients`, `ingredient-N`), and `form` for the form as a whole.
    var errors: [String: String] = [:]

    /// Empty rows a form shows after the ingredients, to add more without a script.
    static let blankRows = 3

    /// An empty form for a new recipe.
    init(notesAvailable: Bool) {
        notes = notesAvailable ? "" : nil
        submission = WebSessions.newID()
    }

    /// A form filled from `details`.
    init(details: RecipeDetails, notesAvailable: Bool) {
        name = details.name
        type = details.type ?? ""
        overview = details.overview ?? ""
        prepTime = details.prepTime ?? ""
        instructions = details.instructions ?? ""
        notes = notesAvailable ? (details.notes ?? "") : nil
        lines = details.ingredients.map { Line(amount: $0.amount ?? "", name: $0.name ?? "") }
        hasPhoto = details.image != nil
        version = Self.version(of: details)
    }

    /// What a browser posted: the fields, the rows in the order sent (fully blank rows
    /// dropped), the photo if one was chosen.
    init(posted form: PostedForm, notesAvailable: Bool) {
        name = form.text("name") ?? ""
        type = form.text("type") ?? ""
        overview = form.text("overview") ?? ""
        prepTime = form.text("prepTime") ?? ""
        instructions = (form.text("instructions") ?? "").replacingOccurrences(of: "\r\n", with: "\n")
        notes = notesAvailable ? (form.text("notes") ?? "").replacingOccurrences(of: "\r\n", with: "\n") : nil
        let amounts = form.texts("amount")
        let names = form.texts("ingredient")
        lines = (0..<max(amounts.count, names.count)).map { index in
            Line(amount: index < amounts.count ? amounts[index].trimmingCharacters(in: .whitespaces) : "",
                 name: index < names.count ? names[index].trimmingCharacters(in: .whitespaces) : "")
        }.filter { !$0.amount.isEmpty || !$0.name.isEmpty }
        photo = form.file("photo")
        removePhoto = form.text("removePhoto") != nil
        version = form.text("version")
        submission = form.text("submission")
    }

    /// The checks before the book's: a row with an amount and no name, and a chosen photo
    /// that is not a whole JPEG or PNG (read by content, as `recipes add --image` reads it).
    /// Whether all passed.
    mutating func check() -> Bool {
        for (index, line) in lines.enumerated() where line.name.isEmpty {
            errors["ingredient-\(index)"] = "This ingredient has an amount (\(line.amount)) but no name: give its name, or clear the row."
        }
        if let photo {
            do { try RecipeLimits.check(photo: photo) } catch { show(error) }
        }
        if !errors.isEmpty { self.photo = nil }
        return errors.isEmpty
    }

    /// The rows as the book's ingredient lines.
    var ingredientInputs: [IngredientInput] {
        lines.map { IngredientInput(amount: $0.amount.isEmpty ? nil : $0.amount, name: $0.name) }
    }

    /// The new recipe the form describes.
    var draft: RecipeDraft {
        RecipeDraft(name: name, type: type, overview: overview, prepTime: prepTime, instructions: instructions,
                    ingredients: ingredientInputs, image: photo, notes: notes)
    }

    /// The edit the form makes: every field as shown, the whole ingredient list in order.
    var edit: RecipeEdit {
        RecipeEdit(name: name, type: type, overview: overview, prepTime: prepTime, instructions: instructions,
                   image: photo, clearImage: removePhoto && photo == nil, notes: notes, ingredientList: ingredientInputs)
    }

    /// Puts the book's refusal next to the field it is about.
    mutating func show(_ error: RecipesError) {
        let field: String
        switch error {
        case .invalidValue(let name, _):
            field = switch name {
            case "name": "name"
            case "type": "type"
            case "overview": "overview"
            case "prep time": "prepTime"
            case "instructions": "instructions"
            case "notes": "notes"
            case "image": "photo"
            case "ingredient", "ingredient amount", "ingredients": "ingredients"
            default: "form"
            }
        case .duplicateRecipeName: field = "name"
        case .malformedIngredient, .ingredientNotFound: field = "ingredients"
        case .invalidImage: field = "photo"
        default: field = "form"
        }
        errors[field] = Self.sentence(error.description)
    }

    /// `text` with a capital first letter and a final full stop, as a message on a page.
    static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        let capitalised = first.uppercased() + text.dropFirst()
        return capitalised.hasSuffix(".") ? capitalised : capitalised + "."
    }

    /// A digest of everything a recipe shows, which changes whenever any of it does.
    static func version(of details: RecipeDetails) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(details)) ?? Data()
        return Base64URL.encode(Data(SHA256.hash(data: data).prefix(16)))
    }
}
