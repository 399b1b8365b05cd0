public import Foundation

/// A sample set file that cannot be imported, with every problem found in it.
///
/// The loader checks the whole file before returning, so one error lists all the fixes the
/// author needs instead of one per attempt. Each line of ``description`` names the file and
/// the JSON path: `classics.json: $.recipes[3].ingredients[1].name: expected a non-empty
/// string, found a number`.
public struct SampleSetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The set file, as given to the loader.
    public var fileURL: URL
    /// Every problem found, in document order; never empty.
    public var issues: [SampleSetIssue]

    /// Makes an error for `fileURL` with at least one issue.
    public init(fileURL: URL, issues: [SampleSetIssue]) {
        precondition(!issues.isEmpty, "a SampleSetError needs at least one issue")
        self.fileURL = fileURL
        self.issues = issues
    }

    /// The file's name as shown in messages.
    public var fileName: String { fileURL.lastPathComponent }

    /// One line per issue, each starting with the file name.
    public var description: String {
        issues.map { "\(fileName): \($0)" }.joined(separator: "\n")
    }

    /// The first issue on one line, plus how many more there are: for a one-line CLI reason.
    public var summary: String {
        let first = "\(fileName): \(issues[0])"
        return issues.count == 1 ? first : "\(first) (and \(issues.count - 1) more)"
    }
}
