import Foundation
import RecipesKit

/// Writing to the terminal: results on stdout, diagnostics and progress on stderr.
package enum Terminal {
    /// Prints a line on stdout.
    package static func print(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Prints `recipes: <message>` on stderr, on one line.
    package static func error(_ message: String) {
        let oneLine = message.replacingOccurrences(of: "\n", with: "; ")
        FileHandle.standardError.write(Data("recipes: \(oneLine)\n".utf8))
    }

    /// Prints a diagnostic line on stderr.
    package static func note(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }

    /// Asks for a password on the terminal without echoing it, when standard input is a
    /// terminal; `nil` otherwise (scripts and tests never wait for a prompt) or when nothing
    /// was typed.
    package static func promptPassword(_ prompt: String) -> String? {
        guard isatty(STDIN_FILENO) != 0, let typed = getpass(prompt) else { return nil }
        let password = String(cString: typed)
        return password.isEmpty ? nil : password
    }

    /// Whether stderr is a terminal (progress bars are drawn only then).
    package static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// Writes `bytes` to standard output and empties them (for output made in pieces).
    package static func write(_ bytes: inout [UInt8]) {
        guard !bytes.isEmpty else { return }
        FileHandle.standardOutput.write(Data(bytes))
        bytes.removeAll(keepingCapacity: true)
    }

    /// Prints `value` as JSON on stdout: pretty, keys sorted, absent values as `null`
    /// (``JSONOutputEncoder``), so the shape is stable.
    package static func printJSON<T: Encodable>(_ value: T) throws {
        var bytes = JSONOutputEncoder.pretty(try JSONOutputEncoder.encode(value))
        bytes.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// Prints `value` as JSON on one line of stdout: keys sorted, absent values as `null`
    /// (``JSONOutputEncoder``), for output that streams one record a line (`sync --live --json`).
    package static func printJSONLine<T: Encodable>(_ value: T) throws {
        var bytes = JSONOutputEncoder.line(try JSONOutputEncoder.encode(value))
        bytes.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// Lays rows out in columns separated by two spaces, the last column unpadded. Widths
    /// count characters as people see them (an accented letter is one), and each line loses
    /// its trailing spaces.
    package static func table(_ header: [String], _ rows: [[String]]) -> [String] {
        let all = [header] + rows
        // Counting characters walks each cell's grapheme clusters: once per cell, not once
        // for the widths and again for the padding.
        let counts = all.map { $0.map(\.count) }
        let widths = header.indices.map { column in counts.map { $0[column] }.max() ?? 0 }
        return zip(all, counts).map { row, rowCounts in
            var line = ""
            for (index, cell) in row.enumerated() {
                line += cell
                if index < row.count - 1 {
                    line += String(repeating: " ", count: widths[index] - rowCounts[index] + 2)
                }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// Prints lines on stdout, written in blocks of about 64 KB rather than one write per
    /// line, so a list of 100,000 recipes is not 100,000 system calls.
    package static func print(lines: some Sequence<String>) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        for line in lines {
            bytes += line.utf8
            bytes.append(UInt8(ascii: "\n"))
            if bytes.count >= 1 << 16 { write(&bytes) }
        }
        write(&bytes)
    }
}
