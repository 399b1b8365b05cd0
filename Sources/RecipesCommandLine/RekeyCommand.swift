import ArgumentParser
import Foundation
import RecipesKit

/// `recipes rekey`: re-encrypts every encrypted value (the recipes' private notes) with a new
/// password, in one save.
struct RekeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rekey", _superCommandName: RecipesCommand.name,
        abstract: "Re-encrypt the private notes with a new password.",
        discussion: """
            The old password comes from --password-file (or RECIPES_PASSWORD_FILE, or "passwordFile" in the \
            config file), the new one from --new-password-file; each file's first line is the password. \
            Every value and the store's key record change in one transaction, or none does: \
            whenever it stops, exactly one of the two passwords opens the store. A value already \
            under the new password is read with it, so a store whose notes are under both \
            passwords is repaired by a rekey given both. The same password twice changes nothing. \
            The store must exist. The changed recipes sync like any edit. Afterwards, point your \
            password file setting at the new file.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("new-password-file"), help: ArgumentHelp("A file whose first line is the new password.", valueName: "file"))
    var newPasswordFile: String

    func run() async throws {
        try await reportingFailures {
            let configuration: RecipesConfiguration
            do {
                configuration = try RecipesConfiguration.resolve(
                    options: global.configurationOptions, environment: RecipesConfiguration.processEnvironment())
            } catch {
                throw CommandFailure(message: "\(error)")
            }
            guard FileManager.default.fileExists(atPath: configuration.storeURL.path) else {
                throw CommandFailure(message: "there is no store at \(configuration.storeURL.path); give the --store of the store whose notes to re-encrypt")
            }
            let session = try await Session.open(global, purpose: .importing)
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
