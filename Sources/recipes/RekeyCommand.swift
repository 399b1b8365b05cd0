import ArgumentParser
import Foundation
import RecipesKit

/// `recipes rekey`: re-encrypts every encrypted value (the recipes' private notes) with a new
/// password, in one save.
struct RekeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract: "Re-encrypt the private notes with a new password.",
        discussion: """
            The old password comes from --password-file (or RECIPES_PASSWORD_FILE, or "passwordFile" in the \
            config file), the new one from --new-password-file; each file's first line is the password. \
            Every value changes in one write, or none does; the changed recipes sync like any edit. \
            Afterwards, point your password file setting at the new file.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("new-password-file"), help: ArgumentHelp("A file whose first line is the new password.", valueName: "file"))
    var newPasswordFile: String

    func run() async throws {
        try await reportingFailures {
            let session = try await Session.open(global)
            let configured: URL?
            do { configured = try session.configuration.checkedPasswordFileURL() } catch {
                throw CommandFailure(message: "\(error)")
            }
            guard let oldFile = configured else {
                throw CommandFailure(message: "rekey needs the current password; give --password-file FILE or set RECIPES_PASSWORD_FILE")
            }
            let old = try Session.readPassword(oldFile)
            let new = try Session.readPassword(URL(fileURLWithPath: newPasswordFile))
            let count: Int
            do { count = try session.store.rekey(from: old, to: new) } catch {
                throw CommandFailure(message: "\(error)")
            }
            Terminal.print("re-encrypted \(count) value\(count == 1 ? "" : "s") with the new password")
        }
    }
}
