import ArgumentParser
import Foundation

/// Where the subcommands find the `recipes` program they drive: the path an option gives,
/// else one built beside this benchmark, else the root package's build of the same
/// configuration (`<root>/.build/release/recipes` for a release benchmark).
enum RecipesExecutable {
    /// The path of `recipes`; a usage error naming `option` when nothing runnable is there.
    static func path(_ given: String?, option: String) throws -> String {
        let candidates = given.map { [$0] } ?? defaultCandidates()
        for executable in candidates where FileManager.default.isExecutableFile(atPath: executable) {
            return executable
        }
        throw ValidationError("no `recipes` executable at \(candidates.joined(separator: " or ")); "
            + "build it at the repository's root (Scripts/build-static -c release, which also builds recipes-network "
            + "for the benchmarks that serve or sync) or pass \(option)")
    }

    /// Beside this program, then the root package's `.build/<configuration>/recipes`.
    private static func defaultCandidates() -> [String] {
        guard let bench = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return [] }
        let folder = bench.deletingLastPathComponent()
        var candidates = [folder.appendingPathComponent("recipes").path]
        // <root>/Benchmarks/.build/<triple>/<configuration>/recipes-bench
        var ancestor = folder
        while ancestor.pathComponents.count > 1 {
            if ancestor.lastPathComponent == "Benchmarks",
               FileManager.default.fileExists(atPath: ancestor.deletingLastPathComponent().appendingPathComponent("Package.swift").path) {
                let root = ancestor.deletingLastPathComponent()
                candidates.append(root.appendingPathComponent(".build/\(folder.lastPathComponent)/recipes").path)
                break
            }
            ancestor = ancestor.deletingLastPathComponent()
        }
        return candidates
    }
}
