import ArgumentParser
import RecipesKit

/// `recipes add`: creates a recipe.
struct AddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", _superCommandName: RecipesCommand.name, abstract: "Add a recipe.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: ArgumentHelp("The recipe's name (must be new).", valueName: "name"))
    var name: String

    @OptionGroup var fields: RecipeInputOptions

    func run() async throws {
        try await reportingFailures {
            let draft = RecipeDraft(
                name: name, type: fields.type, overview: fields.overview, prepTime: fields.prepTime,
                instructions: try fields.readInstructions(), ingredients: try fields.parsedIngredients(), image: try fields.readImage(),
                notes: try fields.readNotes())
            let session = try await Session.open(global, unlocking: draft.notes != nil ? .required : .ifConfigured)
            let details = try session.book.add(draft)
            Terminal.print("added \(details.name) (\(details.id))")
        }
    }
}
