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
        let names = try versionNames(in: url)
        var versions: [String: ObjectModel] = [:]
        for name in names {
            versions[name] = try ObjectModel.load(contentsOf: url.appendingPathComponent(name + ".xcdatamodel"), digest: digest)
        }
        return ModelVersionSet(versions: versions, currentVersionName: try currentVersionName(in: url, among: names))
    }

    /// Loads only the current version of the `.xcdatamodeld` folder at `url` (see
    /// ``load(contentsOf:digest:)`` for how it is picked): all that opening a store with
    /// the model needs, without parsing the older versions at every start of a program.
    /// - Throws: ``ModelError`` for an invalid current version or a missing/invalid
    ///   `.xccurrentversion`.
    public static func loadCurrent(contentsOf url: URL, digest: VersionDigest) throws -> ObjectModel {
        let name = try currentVersionName(in: url, among: try versionNames(in: url))
        return try ObjectModel.load(contentsOf: url.appendingPathComponent(name + ".xcdatamodel"), digest: digest)
    }

    /// The names of the `.xcdatamodel` versions inside `url`, without the extension, sorted.
    private static func versionNames(in url: URL) throws -> [String] {
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: url.path)
        } catch {
            throw ModelError(file: url.path, line: 0, element: "xcdatamodeld", reason: "cannot list the folder (\(error.localizedDescription)); check the path")
        }
        let names = entries.filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) }.sorted()
        guard !names.isEmpty else {
            throw ModelError(file: url.path, line: 0, element: "xcdatamodeld", reason: "no .xcdatamodel version inside; add one")
        }
        return names
    }

    /// The current version's name: the one the `.xccurrentversion` plist names, or the only
    /// version when there is no plist.
    private static func currentVersionName(in url: URL, among names: [String]) throws -> String {
        let plistURL = url.appendingPathComponent(".xccurrentversion")
        let plistPath = plistURL.path
        guard FileManager.default.fileExists(atPath: plistPath) else {
            guard names.count == 1 else {
                throw ModelError(file: plistPath, line: 0, element: ".xccurrentversion", reason: "several versions but no .xccurrentversion; add one naming the current version")
            }
            return names[0]
        }
        // Decoded into a typed value: PropertyListDecoder reads the plist in Swift, where
        // PropertyListSerialization first builds bridged Foundation objects, a visible share
        // of every `recipes` command's start.
        guard let data = FileManager.default.contents(atPath: plistPath),
              let name = try? PropertyListDecoder().decode(CurrentVersionPlist.self, from: data).name else {
            throw ModelError(file: plistPath, line: 1, element: "_XCCurrentVersionName", reason: "not a property list naming the current version; write a dict with key _XCCurrentVersionName")
        }
        let current = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
        guard names.contains(current) else {
            throw ModelError(file: plistPath, line: 1, element: "_XCCurrentVersionName", reason: "names version \"\(name)\" which is not in the folder (have \(names.joined(separator: ", "))); fix the name")
        }
        return current
    }

    /// The `.xccurrentversion` property list: the name of the current version's folder.
    private struct CurrentVersionPlist: Decodable {
        let name: String

        enum CodingKeys: String, CodingKey {
            case name = "_XCCurrentVersionName"
        }
    }

    /// The version whose hash is `versionHash` (to open a store written with an older version).
    public func version(withHash versionHash: String) -> ObjectModel? {
        versions.values.first { $0.versionHash == versionHash }
    }
}
