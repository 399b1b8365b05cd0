import Foundation
import TestSupport

/// A `.xcdatamodeld` folder written to a temporary directory for one test: versions given
/// as the entity XML inside `<model>`, and an optional `.xccurrentversion`. The folder is
/// removed when the value goes away.
final class TemporaryModel {
    let url: URL
    private let root: TemporaryDirectory

    /// Writes `versions` (version name → entity XML) and, when `current` is given, a
    /// `.xccurrentversion` naming it.
    init(_ versions: [String: String], current: String? = nil) throws {
        root = try TemporaryDirectory("entity-codegen")
        url = root.url.appendingPathComponent("Test.xcdatamodeld", isDirectory: true)
        for (name, entities) in versions {
            let folder = url.appendingPathComponent("\(name).xcdatamodel", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
            try Data(xml.utf8).write(to: folder.appendingPathComponent("contents"))
        }
        if let current {
            let plist = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>\(current).xcdatamodel</string></dict></plist>\n"
            try Data(plist.utf8).write(to: url.appendingPathComponent(".xccurrentversion"))
        }
    }

    /// A single-version model holding `entities`.
    convenience init(entities: String) throws {
        try self.init(["Test": entities])
    }

    /// The path of a version's `contents` file, as errors name it.
    func contentsPath(_ version: String = "Test") -> String {
        url.appendingPathComponent("\(version).xcdatamodel/contents").path
    }
}
