import Foundation
import ArgumentParser
import RecipesKit

/// `recipes show`: everything about one recipe.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", _superCommandName: RecipesCommand.name,
        abstract: "Show one recipe: ingredients in order, type, prep time, instructions, image size.",
        discussion: """
            --json prints {id, name, type, overview, prepTime, instructions, \
            ingredients: [{id, amount, name, displayOrder}], image: {bytes, mimeType} | null, thumbnail: … | null, \
            notes: string | null, notesEncrypted: bool}. The private notes are shown when the password is given \
            (--password-file, RECIPES_PASSWORD_FILE or "passwordFile" in the config file); without it they print \
            as `notes: (encrypted)` (JSON: notes null, notesEncrypted true). A value that cannot be decrypted \
            (changed on the server, or another password) is reported with the document ID and exits 1.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The recipe's name or ID.", valueName: "name-or-id"))
    var recipe: String

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        try await reportingFailures {
            let session = try await Session.open(global, purpose: .browsing, unlocking: .ifConfigured)
            let book = session.book
            let details = try book.details(of: try book.recipe(named: recipe))
            if json {
                try Terminal.printJSON(details)
            } else {
                for line in Self.render(details) { Terminal.print(line) }
            }
            // Without a password the notes are simply not shown; a value the password cannot
            // open is a problem to report (tampered with, or written with another password).
            if details.notesEncrypted, session.store.isUnlocked, let problem = details.notesProblem {
                throw CommandFailure(message: problem)
            }
        }
    }

    /// The text form of a recipe.
    static func render(_ details: RecipeDetails) -> [String] {
        var lines = [details.name, String(repeating: "=", count: details.name.count)]
        func field(_ label: String, _ value: String?) { lines.append("\(label.padding(toLength: 11, withPad: " ", startingAt: 0))\(value ?? "-")") }
        field("ID:", details.id)
        field("Type:", details.type)
        field("Prep time:", details.prepTime)
        field("Overview:", details.overview)
        field("Image:", details.image.map(describe))
        field("Thumbnail:", details.thumbnail.map(describe))
        lines.append("")
        lines.append("Ingredients:")
        if details.ingredients.isEmpty { lines.append("  (none)") }
        let width = details.ingredients.map { ($0.amount ?? "").count }.max() ?? 0
        for line in details.ingredients {
            lines.append("  " + (line.amount ?? "").padding(toLength: width, withPad: " ", startingAt: 0) + "  " + (line.name ?? ""))
        }
        lines.append("")
        lines.append("Instructions:")
        let steps = (details.instructions ?? "").split(separator: "\n", omittingEmptySubsequences: true)
        if steps.isEmpty { lines.append("  (none)") }
        for step in steps { lines.append("  " + step) }
        if details.notesEncrypted {
            lines.append("")
            lines.append("notes: (encrypted)")
        } else if let notes = details.notes {
            lines.append("")
            lines.append("Notes:")
            for line in notes.split(separator: "\n", omittingEmptySubsequences: false) { lines.append("  " + line) }
        }
        return lines
    }

    private static func describe(_ image: ImageInfo) -> String {
        "\(image.bytes) bytes (\(image.mimeType))"
    }
}
