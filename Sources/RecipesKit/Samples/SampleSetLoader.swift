import DocumentStore
public import Foundation
import DocumentFormat

/// Reads sample sets from JSON files and checks every value before handing back a
/// ``SampleSet``, so an import either has a fully valid set or a ``SampleSetError`` listing
/// each problem with its JSON path — never half a set.
///
/// File format (one set per file, images relative to the file's folder):
///
/// ```json
/// {"name": "classics",
///  "types": ["Appetizer", "Entrée"],
///  "recipes": [{"name": "…", "type": "Dessert", "overview": "…", "prepTime": "…",
///               "instructions": "…", "ingredients": [{"amount": "…", "name": "…"}],
///               "image": "images/x.jpg", "thumbnail": "images/x-thumb.jpg"}]}
/// ```
///
/// Rules: `name` (set, recipe, ingredient) is a required non-empty string; everything else
/// is optional, and `null` counts as absent. `types` declares types no recipe uses (the
/// recipes' own types are added in first-seen order). Recipe names and declared type names
/// must be unique within the set. Images must be PNG or JPEG by content, at most
/// ``maximumImageBytes`` long, and live in the set file's folder or below it.
/// **Unknown keys are refused**: a misspelt `"prepTIme"` would otherwise silently drop data.
public struct SampleSetLoader: Sendable {
    /// The default ceiling for one image file (4 MiB): generous for a recipe photo, small
    /// enough that a wrong file (a video, a disk image) is caught before it is read whole.
    public static let defaultMaximumImageBytes = 4 << 20

    /// Image files larger than this are refused.
    public var maximumImageBytes: Int

    /// Makes a loader with the given image size ceiling.
    public init(maximumImageBytes: Int = SampleSetLoader.defaultMaximumImageBytes) {
        self.maximumImageBytes = maximumImageBytes
    }

    /// Reads and validates the set file at `fileURL`; images resolve against its folder.
    public func load(contentsOf fileURL: URL) throws(SampleSetError) -> SampleSet {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            throw SampleSetError(
                fileURL: fileURL,
                issues: [SampleSetIssue(path: nil, problem: .unreadableFile(reason: Self.readFailure(fileURL, error)))])
        }
        return try load(data: data, fileURL: fileURL)
    }

    /// Validates set JSON already in memory; `fileURL` names it in errors and its folder is
    /// where image paths resolve.
    public func load(data: Data, fileURL: URL) throws(SampleSetError) -> SampleSet {
        let tree: JSONValue
        switch JSONValue.parseLocatingErrors(data) {
        case .success(let parsed):
            tree = parsed
        case .failure(let syntax):
            throw SampleSetError(
                fileURL: fileURL,
                issues: [SampleSetIssue(path: nil, problem: .invalidJSON(detail: syntax.detail, line: syntax.line, column: syntax.column))])
        }
        var validator = SampleSetValidator(
            baseDirectory: fileURL.deletingLastPathComponent(), maximumImageBytes: maximumImageBytes)
        let set = validator.sampleSet(from: tree)
        guard validator.issues.isEmpty, let set else {
            throw SampleSetError(fileURL: fileURL, issues: validator.issues)
        }
        return set
    }

    /// Checks the set file at `fileURL` as ``load(contentsOf:)`` does, with the same errors,
    /// but for importing: a valid file is read a recipe at a time and handed back as a
    /// ``SampleSetFile``, which the importer reads again a batch at a time, so a large set is
    /// never held whole. A file the streaming reading cannot take as it is (not valid, or
    /// unusual: a repeated key, another text encoding) is loaded whole, giving the same set
    /// or the same error as ``load(contentsOf:)``.
    public func checkedSet(contentsOf fileURL: URL) throws(SampleSetError) -> any ImportableSampleSet {
        if let file = SampleSetFile.check(fileURL, maximumImageBytes: maximumImageBytes) { return file }
        return try load(contentsOf: fileURL)
    }

    /// Loads every `*.json` file directly inside `directory`, sorted by file name, and
    /// checks that no two declare the same set name. Stops at the first invalid file.
    public func loadAll(in directory: URL) throws(SampleSetError) -> [SampleSet] {
        try each(in: directory, named: \.name) { file throws(SampleSetError) in try load(contentsOf: file) }
    }

    /// ``loadAll(in:)`` for importing: each file as ``checkedSet(contentsOf:)`` gives it.
    public func checkAll(in directory: URL) throws(SampleSetError) -> [any ImportableSampleSet] {
        try each(in: directory, named: \.name) { file throws(SampleSetError) in try checkedSet(contentsOf: file) }
    }

    /// Reads every `*.json` file directly inside `directory` with `read`, sorted by file
    /// name, and checks that no two declare the same set name (`name`). Stops at the first
    /// invalid file.
    private func each<Loaded>(
        in directory: URL, named name: KeyPath<Loaded, String>, _ read: (URL) throws(SampleSetError) -> Loaded
    ) throws(SampleSetError) -> [Loaded] {
        let files: [URL]
        do {
            // Foundation lists a symbolic link to a folder as empty: list its target.
            files = try FileManager.default.contentsOfDirectory(at: directory.resolvingSymlinksInPath(), includingPropertiesForKeys: nil)
                .filter { $0.pathExtension.lowercased() == "json" }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
        } catch {
            throw SampleSetError(
                fileURL: directory,
                issues: [SampleSetIssue(path: nil, problem: .unreadableFile(reason: Self.readFailure(directory, error)))])
        }
        var sets: [Loaded] = []
        var fileForName: [String: URL] = [:]
        for file in files {
            let set = try read(file)
            let setName = set[keyPath: name]
            if let other = fileForName[setName] {
                throw SampleSetError(
                    fileURL: file,
                    issues: [SampleSetIssue(path: JSONPath.root.appending("name"),
                                            problem: .duplicateSetName(setName, otherFile: other.lastPathComponent))])
            }
            fileForName[setName] = file
            sets.append(set)
        }
        return sets
    }

    /// A short reason a file could not be read, preferring plain facts over Foundation's
    /// long sentences.
    static func readFailure(_ url: URL, _ error: any Error) -> String {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            return "no such file at \(url.path)"
        }
        if isDirectory.boolValue, url.pathExtension.lowercased() == "json" {
            return "\(url.path) is a directory"
        }
        if !FileManager.default.isReadableFile(atPath: url.path) {
            return "permission denied for \(url.path)"
        }
        return (error as NSError).localizedDescription
    }
}
