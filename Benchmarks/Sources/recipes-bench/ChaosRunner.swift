import Foundation

/// Runs the `recipes` program for a chaos run: local commands that must succeed, syncs
/// whose every ending is recorded, and the reads the final check needs.
struct ChaosRunner {
    let executable: String
    let environment: [String: String]
    let scratch: URL
    /// Seconds a run may take before it is killed.
    let timeout: Double

    /// Runs `recipes` with `arguments` and reports how it ended, whatever that was.
    func run(_ arguments: [String]) throws -> TimedProcess.Outcome {
        try TimedProcess.run(executable, arguments, environment: environment, timeout: timeout, scratch: scratch)
    }

    /// Runs a command on `store` that must exit 0; returns its stdout.
    @discardableResult
    func local(_ store: String, _ arguments: [String]) throws -> String {
        let outcome = try run(["--store", store] + arguments)
        guard outcome.exitStatus == 0 else {
            throw ChaosError("`recipes --store \(store) \(arguments.joined(separator: " "))` failed "
                             + "(exit \(outcome.exitStatus.map(String.init) ?? "signal")): \(outcome.stderr.suffix(500))")
        }
        return outcome.stdout
    }

    /// The recipes `list --json` prints for `store`: each one's name and overview.
    func recipes(in store: String) throws -> [(name: String, overview: String?)] {
        let output = try local(store, ["list", "--json"])
        guard let list = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] else {
            throw ChaosError("`list --json` did not print an array")
        }
        return list.map { ($0["name"] as? String ?? "", $0["overview"] as? String) }
    }

    /// Syncs `store` with `remote` (which must succeed) and returns how many documents it
    /// moved: pulled, pushed and conflicts resolved.
    func cleanSync(_ store: String, remote: String) throws -> Int {
        let output = try local(store, ["sync", "--remote", remote, "--json"])
        guard let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
              report["result"] as? String == "succeeded" else {
            throw ChaosError("clean sync of \(store) did not succeed: \(output.prefix(500))")
        }
        return ["pulled", "pushed", "conflictsResolved"].map { report[$0] as? Int ?? 0 }.reduce(0, +)
    }
}
