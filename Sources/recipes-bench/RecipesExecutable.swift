import ArgumentParser
import Foundation

/// Where the subcommands find the `recipes` program they drive: the path an option gives,
/// else the one built next to this benchmark.
enum RecipesExecutable {
    /// The path of `recipes`; a usage error naming `option` when nothing runnable is there.
    static func path(_ given: String?, option: String) throws -> String {
        let executable = given ?? Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("recipes").path
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw ValidationError("no `recipes` executable at \(executable); build it (swift build -c release --product recipes) or pass \(option)")
        }
        return executable
    }
}
