import ArgumentParser
import Foundation
import RecipesKit

/// The recipe fields `add` and `edit` accept, read and checked before the store is opened.
struct RecipeInputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The recipe type (an existing one is reused, ignoring case).", valueName: "type"))
    var type: String?

    @Option(name: .long, help: ArgumentHelp("A one-line description.", valueName: "text"))
    var overview: String?

    @Option(name: .customLong("prep-time"), help: ArgumentHelp("How long it takes, e.g. \"40 minutes\".", valueName: "text"))
    var prepTime: String?

    @Option(name: .long, help: ArgumentHelp("The method, steps separated by newlines.", valueName: "text"))
    var instructions: String?

    @Option(name: .customLong("instructions-file"), help: ArgumentHelp("Read the method from a file.", valueName: "file"))
    var instructionsFile: String?

    @Option(name: .customLong("ingredient"), help: ArgumentHelp("An ingredient line \"AMOUNT|NAME\"; repeat for more.", valueName: "amount|name"))
    var ingredients: [String] = []

    @Option(name: .long, help: ArgumentHelp("A PNG or JPEG picture, at most 10 MB.", valueName: "file"))
    var image: String?

    @Option(name: .long, help: ArgumentHelp("Private notes, stored encrypted (needs --password-file or RECIPES_PASSWORD_FILE); at most 1 MB, as every text field.", valueName: "text"))
    var notes: String?

    @Option(name: .customLong("notes-file"), help: ArgumentHelp("Read the private notes from a file.", valueName: "file"))
    var notesFile: String?

    func validate() throws {
        if instructions != nil && instructionsFile != nil {
            throw ValidationError("Give either --instructions or --instructions-file, not both.")
        }
        if notes != nil && notesFile != nil {
            throw ValidationError("Give either --notes or --notes-file, not both.")
        }
    }

    /// The instructions from the option or the file.
    func readInstructions() throws -> String? {
        guard let instructionsFile else { return instructions }
        try Self.checkSize(instructionsFile, field: "instructions", limit: RecipeLimits.maximumFieldBytes)
        do {
            return try String(contentsOfFile: instructionsFile, encoding: .utf8)
        } catch {
            throw CommandFailure(message: RecipesError.unreadableFile(path: instructionsFile, reason: "not a readable UTF-8 text file").description)
        }
    }

    /// The notes from the option or the file.
    func readNotes() throws -> String? {
        guard let notesFile else { return notes }
        try Self.checkSize(notesFile, field: "notes", limit: RecipeLimits.maximumFieldBytes)
        do {
            return try String(contentsOfFile: notesFile, encoding: .utf8)
        } catch {
            throw CommandFailure(message: RecipesError.unreadableFile(path: notesFile, reason: "not a readable UTF-8 text file").description)
        }
    }

    /// The parsed ingredient lines.
    func parsedIngredients() throws -> [IngredientInput] {
        do {
            return try ingredients.map { text throws(RecipesError) in try IngredientInput(parsing: text) }
        } catch {
            throw CommandFailure(message: error.description)
        }
    }

    /// The picture's bytes, checked to be PNG or JPEG.
    func readImage() throws -> Data? {
        guard let image else { return nil }
        try Self.checkSize(image, field: "image", limit: RecipeLimits.maximumImageBytes)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: image))
        } catch {
            throw CommandFailure(message: RecipesError.unreadableFile(path: image, reason: error.localizedDescription).description)
        }
        guard SampleImage(data: data) != nil else { throw CommandFailure(message: RecipesError.invalidImage(path: image).description) }
        do {
            try RecipeLimits.check(photo: data)
        } catch {
            throw CommandFailure(message: "\(image): \(error.description)")
        }
        return data
    }

    /// Refuses a file larger than `limit` before reading it.
    private static func checkSize(_ path: String, field: String, limit: Int) throws {
        do {
            try RecipeLimits.checkFileSize(path: path, field: field, limit: limit)
        } catch {
            throw CommandFailure(message: error.description)
        }
    }
}
