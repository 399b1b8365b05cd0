public import Foundation

/// All versions of a versioned model (`.xcdatamodeld` folder) and which one is current.
public struct ModelVersionSet: Sendable {
    /// Each version keyed by its name (the `.xcdatamodel` folder name without extension).
    public let versions: [String: ObjectModel]
    /// Name of the current version, from `.xccurrentversion`.
    public let currentVersionName: String

    /// The current model version.
    public var current: ObjectModel { versions[currentVersionName]! }

    /// Version names, sorted.
    public var versionNames: [String] { versions.keys.sorted() }

    /// Loads every `.xcdatamodel` inside `url` and picks the current one named by the
    /// `.xccurrentversion` plist (or the only version when there is no such plist), hashing
    /// versions with `digest`.
    /// - Throws: ``ModelError`` for an invalid version or a missing/invalid current version.
    public static func load(contentsOf url: URL, digest: VersionDigest) throws -> ModelVersionSet {
        let fm = FileManager.default
        let names: [String]
        do {
            names = try fm.contentsOfDirectory(atPath: url.path)
        } catch {
            throw ModelError(file: url.path, line: 0, element: "xcdatamodeld", reason: "cannot list the folder (\(error.localizedDescription)); check the path")
        }
        var versions: [String: ObjectModel] = [:]
        for n in names.sorted() where n.hasSuffix(".xcdatamodel") {
            let model = try ObjectModel.load(contentsOf: url.appendingPathComponent(n), digest: digest)
            versions[String(n.dropLast(".xcdatamodel".count))] = model
        }
        guard !versions.isEmpty else {
            throw ModelError(file: url.path, line: 0, element: "xcdatamodeld", reason: "no .xcdatamodel version inside; add one")
        }
        let plistURL = url.appendingPathComponent(".xccurrentversion")
        var current: String
        if fm.fileExists(atPath: plistURL.path) {
            let plistPath = plistURL.path
            guard let data = fm.contents(atPath: plistPath),
                  let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
                  let name = plist["_XCCurrentVersionName"] as? String else {
                throw ModelError(file: plistPath, line: 1, element: "_XCCurrentVersionName", reason: "not a property list naming the current version; write a dict with key _XCCurrentVersionName")
            }
            current = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
            guard versions[current] != nil else {
                throw ModelError(file: plistPath, line: 1, element: "_XCCurrentVersionName", reason: "names version \"\(name)\" which is not in the folder (have \(versions.keys.sorted().joined(separator: ", "))); fix the name")
            }
        } else {
            guard versions.count == 1 else {
                throw ModelError(file: plistURL.path, line: 0, element: ".xccurrentversion", reason: "several versions but no .xccurrentversion; add one naming the current version")
            }
            current = versions.keys.first!
        }
        return ModelVersionSet(versions: versions, currentVersionName: current)
    }

    /// The version whose hash is `versionHash` (to open a store written with an older version).
    public func version(withHash versionHash: String) -> ObjectModel? {
        versions.values.first { $0.versionHash == versionHash }
    }
}
