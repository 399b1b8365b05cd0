public import Foundation

/// A fresh directory under the system temporary directory, removed with everything in it when
/// the value goes away. Every test target uses this one type.
public final class TemporaryDirectory: Sendable {
    /// The directory's location.
    public let url: URL

    /// Creates `<tmp>/<label>-<UUID>`.
    public init(_ label: String = "recipes-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the directory (by default a store file's name).
    public func path(_ name: String = "store.sqlite") -> String { url.appendingPathComponent(name).path }

    /// The URL of `relative` inside the directory.
    public func file(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    /// Writes `text` as UTF-8 to `relative` (creating folders on the way); returns its URL.
    @discardableResult
    public func write(_ relative: String, _ text: String) throws -> URL {
        try write(relative, Data(text.utf8))
    }

    /// Writes `data` to `relative` (creating folders on the way); returns its URL.
    @discardableResult
    public func write(_ relative: String, _ data: Data) throws -> URL {
        let target = file(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target)
        return target
    }
}
