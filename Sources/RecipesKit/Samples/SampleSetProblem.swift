/// What is wrong with one value of a sample set file.
public enum SampleSetProblem: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The file itself could not be read (missing, a directory, no permission).
    case unreadableFile(reason: String)
    /// The file is not JSON; `line`/`column` locate the fault, when the parser names its offset.
    case invalidJSON(detail: String, line: Int?, column: Int?)
    /// A required key is absent; `expected` says what should be there.
    case missingKey(expected: String)
    /// A value has the wrong kind or is empty ("expected a non-empty string, found a number").
    case wrongType(expected: String, found: String)
    /// A key this format does not know (sets are strict, so typos are caught).
    case unknownKey(allowed: [String])
    /// The set has no recipes at all.
    case noRecipes
    /// A second recipe or type with a name already used at `firstPath`.
    case duplicateName(String, firstPath: String)
    /// Two set files in one folder declare the same set name.
    case duplicateSetName(String, otherFile: String)
    /// An image path that is absolute or leaves the set's folder.
    case imagePathOutsideSet(String)
    /// An image file that cannot be read.
    case unreadableImage(path: String, reason: String)
    /// An image file that is neither PNG nor JPEG (judged by its first bytes).
    case unsupportedImage(path: String)
    /// An image file larger than the loader accepts.
    case imageTooLarge(path: String, bytes: Int, limit: Int)
    /// The file changed between being checked and being imported (a large set is read
    /// twice: whole to check it, then a batch at a time to import it), so the import stopped
    /// and wrote nothing.
    case changedWhileImporting

    /// A sentence naming the problem and, where it helps, the fix.
    public var description: String {
        switch self {
        case .unreadableFile(let reason):
            "cannot read the file: \(reason)"
        case .invalidJSON(let detail, let line, let column):
            if let line, let column {
                "invalid JSON at line \(line), column \(column): \(detail)"
            } else {
                "invalid JSON: \(detail)"
            }
        case .missingKey(let expected):
            "missing; expected \(expected)"
        case .wrongType(let expected, let found):
            "expected \(expected), found \(found)"
        case .unknownKey(let allowed):
            "unknown key; allowed keys here are \(allowed.joined(separator: ", "))"
        case .noRecipes:
            "the set has no recipes; add at least one"
        case .duplicateName(let name, let firstPath):
            "duplicate name \"\(name)\" (first used at \(firstPath)); names must be unique within a set"
        case .duplicateSetName(let name, let otherFile):
            "set name \"\(name)\" is also used by \(otherFile); give each set its own name"
        case .imagePathOutsideSet(let path):
            "image path \"\(path)\" must be relative to the set file and stay inside its folder"
        case .unreadableImage(let path, let reason):
            "cannot read image \"\(path)\": \(reason)"
        case .unsupportedImage(let path):
            "image \"\(path)\" is neither PNG nor JPEG; convert it to one of those"
        case .imageTooLarge(let path, let bytes, let limit):
            "image \"\(path)\" is \(bytes) bytes; the limit is \(limit) bytes, scale it down"
        case .changedWhileImporting:
            "the file changed while it was being imported, so nothing was imported; import it again"
        }
    }
}
