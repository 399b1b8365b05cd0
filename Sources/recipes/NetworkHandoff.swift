import Foundation
import RecipesCommandLine
import RecipesKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hands the commands that reach other machines to `recipes-network`, the program installed
/// beside this one that links the HTTP client and servers (the way git leaves HTTP to
/// `git-remote-https`). The helper replaces this process: same process ID, arguments,
/// environment and standard streams, so a script, a signal or an exit status cannot tell the
/// difference, while browsing and editing never load the network stack.
struct NetworkHandoff: NetworkCommands {
    /// The helper's file name, looked for in the folder of this program.
    static let helperName = "recipes-network"

    func sync(_ command: SyncCommand) async throws { try handOver("recipes sync") }
    func serve(_ command: ServeCommand) async throws { try handOver("recipes serve") }
    func web(_ command: WebCommand) async throws { try handOver("recipes web") }

    /// Called before anything was written to the store or printed; the helper runs the
    /// whole command again, seeding first.
    func seedWithRemote(_ seeding: FirstRunSeeding) async throws {
        try handOver("seeding a new store from its remote")
    }

    /// Replaces this process with the helper, given this process's own arguments; returns
    /// only by throwing, when the helper is missing or cannot be started.
    private func handOver(_ job: String) throws {
        let helper = Self.helperURL()
        guard FileManager.default.isExecutableFile(atPath: helper.path) else {
            throw CommandFailure(message: "\(job) runs in the program \(Self.helperName), which is not at \(helper.path); "
                + "install it beside recipes (`swift build` builds both, or `swift build --product \(Self.helperName)`)")
        }
        fflush(nil)
        let arguments = [helper.path] + CommandLine.arguments.dropFirst()
        var argv = arguments.map { strdup($0) } + [nil]
        execv(helper.path, &argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        throw CommandFailure(message: "cannot start \(helper.path) for \(job): \(reason)")
    }

    /// `recipes-network` in the folder of the running program (symbolic links resolved, so a
    /// `recipes` linked into `~/.local/bin` finds the helper beside the real file).
    static func helperURL() -> URL {
        let program = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return program.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(helperName)
    }
}
