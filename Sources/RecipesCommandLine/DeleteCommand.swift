import ArgumentParser
import RecipesKit

/// `recipes delete`: removes a recipe with its ingredients and picture.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", _superCommandName: RecipesCommand.name, abstract: "Delete a recipe with its ingredients and picture.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The recipe's name or ID.", valueName: "name-or-id"))
    var recipe: String

    func run() async throws {
        try await reportingFailures {
            let session = try await Session.open(global)
            let book = session.book
            let target = try book.recipe(named: recipe)
            let name = target.name
            let id = target.documentID
            try book.delete(target)
            Terminal.print("deleted \(name) (\(id))")
        }
    }
}
