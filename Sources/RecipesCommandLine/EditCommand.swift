import ArgumentParser
import ObjectGraph
import RecipesKit

/// `recipes edit`: changes a recipe.
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", _superCommandName: RecipesCommand.name, abstract: "Change a recipe.",
        discussion: """
            Options not given leave their field alone; an empty value (--type "") clears it. \
            --ingredient adds a line, or changes the amount of the line of that name; \
            --remove-ingredient NAME removes a line.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The recipe's name or ID.", valueName: "name-or-id"))
    var recipe: String

    @Option(name: .long, help: ArgumentHelp("A new name.", valueName: "name"))
    var name: String?

    @OptionGroup var fields: RecipeInputOptions

    @Option(name: .customLong("remove-ingredient"), help: ArgumentHelp("Remove the ingredient line of this name; repeat for more.", valueName: "name"))
    var removeIngredients: [String] = []

    @Flag(name: .customLong("clear-image"), help: "Remove the picture.")
    var clearImage = false

    func validate() throws {
        if clearImage && fields.image != nil { throw ValidationError("Give either --image or --clear-image, not both.") }
    }

    /// How many times an edit is tried when the recipe changes underneath it.
    static let attempts = 3

    func run() async throws {
        try await reportingFailures {
            let edit = RecipeEdit(
                name: name, type: fields.type, overview: fields.overview, prepTime: fields.prepTime,
                instructions: try fields.readInstructions(), removeIngredients: removeIngredients,
                ingredients: try fields.parsedIngredients(), image: try fields.readImage(), clearImage: clearImage,
                notes: try fields.readNotes())
            let session = try await Session.open(global, unlocking: edit.notes != nil ? .required : .ifConfigured)
            let book = session.book
            var target = try book.recipe(named: recipe)
            guard !edit.isEmpty else {
                throw CommandFailure(message: "nothing to change; give at least one option such as --name or --ingredient (see `recipes edit --help`)")
            }
            // A live sync (or another command) may write the same recipe between the read and
            // the save; the save then fails and writes nothing, and the edit is made again on
            // what is stored now.
            var details: RecipeDetails
            var attempt = 1
            while true {
                do {
                    details = try book.edit(target, edit)
                    break
                } catch let error as RecipesError where error.isConcurrentChange && attempt < Self.attempts {
                    attempt += 1
                    let id = target.documentID
                    book.context.reset()
                    target = try book.recipe(named: id)
                }
            }
            Terminal.print("updated \(details.name) (\(details.id))")
        }
    }
}
