import Foundation
import RecipesKit

/// Writing to the terminal: results on stdout, diagnostics and progress on stderr.
enum Terminal {
    /// Prints a line on stdout.
    static func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Prints `recipes: <message>` on stderr, on one line.
    static func error(_ message: String) {
        let oneLine = message.replacingOccurrences(of: "\n", with: "; ")
        FileHandle.standardError.write(Data("recipes: \(oneLine)\n".utf8))
    }

    /// Prints a diagnostic line on stderr.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }

    /// Asks for a password on the terminal without echoing it, when standard input is a
    /// terminal; `nil` otherwise (scripts and tests never wait for a prompt) or when nothing
    /// was typed.
    static func promptPassword(_ prompt: String) -> String? {
        guard isatty(STDIN_FILENO) != 0, let typed = getpass(prompt) else { return nil }
        let password = String(cString: typed)
        return password.isEmpty ? nil : password
    }

    /// Whether stderr is a terminal (progress bars are drawn only then).
    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// Writes `bytes` to standard output and empties them (for output made in pieces).
    static func write(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        FileHandle.standardOutput.write(Data(bytes))
        bytes.removeAll(keepingCapacity: true)
    }

    /// Prints `value` as JSON on stdout: pretty, keys sorted, absent values as `null`
    /// (``JSONOutputEncoder``), so the shape is stable.
    static func printJSON<T: Encodable>(_ value: T) throws {
        var bytes = JSONOutputEncoder.pretty(try JSONOutputEncoder.encode(value))
        bytes.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// Lays rows out in columns separated by two spaces, the last column unpadded.
    static func table(_ header: [String], _ rows: [[String]]) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }
    }
}
