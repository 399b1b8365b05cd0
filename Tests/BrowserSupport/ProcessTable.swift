internal import Foundation
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// What `/proc` says about processes that are not our direct children: Chromium runs
/// under chromedriver, and a Chromium process is recognised by the unique temporary
/// profile directory on its command line.
enum ProcessTable {
    /// The ids of live processes whose command line has an argument containing `marker`.
    static func processIDs(withArgumentContaining marker: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let needle = Array(marker.utf8)
        return entries.compactMap { Int32($0) }.filter { pid in
            guard pid != getpid(),
                  let commandLine = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"),
                  !commandLine.isEmpty else { return false }
            return commandLine.split(separator: 0).contains { argument in
                argument.count >= needle.count && argument.firstRange(of: needle) != nil
            } && isAlive(pid)
        }.sorted()
    }

    /// Whether `pid` names a process that still runs (a zombie does not count).
    static func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
            return kill(pid, 0) == 0
        }
        // The state follows the parenthesised command name, which may itself hold spaces.
        guard let close = stat.lastIndex(of: ")") else { return true }
        let rest = stat[stat.index(after: close)...].drop(while: { $0 == " " })
        return rest.first != "Z" && rest.first != "X"
    }
}
