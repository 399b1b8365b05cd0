public import Foundation
import GRDB
public import Logging

/// Reads a SQLite store written by Core Data for the original Recipes app into a
/// ``SampleSet``, so recipes kept in the iOS app (or the sample store it shipped) can be
/// imported here.
///
/// The reader never opens the given file itself: it copies it (with any `-wal`/`-shm`
/// companions) to a private temporary folder and opens the copy read-only, so neither a
/// running app nor a crash here can be disturbed by or damage the original.
///
/// Mapping (Core Data's layout: `Z<ENTITY>` tables, `Z_PK` keys, `Z<ATTRIBUTE>` columns,
/// to-one relationships as foreign-key columns): `ZRECIPE` rows become recipes in `Z_PK`
/// order; `ZINGREDIENT` rows their ingredients ordered by `ZDISPLAYORDER`, ties broken by
/// `Z_PK` (the order the original app inserted them); `ZRECIPETYPE` rows the set's types in
/// `Z_PK` order, including unused ones; `ZIMAGE.ZIMAGE` the full image and
/// `ZRECIPE.ZTHUMBNAILIMAGE` the thumbnail. Every foreign key must point at an existing
/// row, an image and its recipe must point at each other, names must be non-empty and
/// recipe and type names unique, and image bytes must be PNG or JPEG. Ingredients and
/// images that belong to no recipe are skipped with a warning (Core Data's nullify rule
/// can leave those behind).
public struct CoreDataStoreReader: Sendable {
    private let logger: Logger

    /// Makes a reader that reports skipped orphan rows to `logger`.
    public init(logger: Logger = Logger(label: "recipes.coredata-import")) {
        self.logger = logger
    }

    /// The set name a store file gets when none is given: its file name without extension
    /// (`Recipes.sqlite` → `Recipes`).
    public static func setName(forStoreAt url: URL) -> String {
        url.deletingPathExtension().lastPathComponent
    }

    /// Converts a Core Data timestamp (seconds since 2001-01-01 00:00:00 UTC, as stored in
    /// `Date` attribute columns) to a `Date`.
    public static func date(fromCoreDataTimestamp seconds: Double) -> Date {
        Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// Reads the whole store at `url` and validates it; the set is named `setName`, or
    /// after the file (``setName(forStoreAt:)``).
    public func read(storeAt url: URL, setName: String? = nil) throws(CoreDataStoreError) -> SampleSet {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .unreadableStore(path: path, reason: isDirectory.boolValue ? "it is a directory" : "no such file")
        }
        let copyDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("recipes-coredata-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: copyDirectory) }
        let copy = copyDirectory.appendingPathComponent(url.lastPathComponent)
        do {
            try FileManager.default.createDirectory(at: copyDirectory, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: url, to: copy)
            for suffix in ["-wal", "-shm"] {
                let companion = URL(fileURLWithPath: path + suffix)
                if FileManager.default.fileExists(atPath: companion.path) {
                    try FileManager.default.copyItem(at: companion, to: URL(fileURLWithPath: copy.path + suffix))
                }
            }
        } catch {
            throw .unreadableStore(path: path, reason: "cannot copy it to \(copyDirectory.path): \(error.localizedDescription)")
        }

        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "CoreDataStoreReader"
        let name = setName ?? Self.setName(forStoreAt: url)
        let logger = self.logger
        do {
            let queue = try DatabaseQueue(path: copy.path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                var extraction = CoreDataRecipesExtraction(db: db, path: path, logger: logger)
                return try extraction.sampleSet(named: name)
            }
        } catch let error as CoreDataStoreError {
            throw error
        } catch let error as DatabaseError {
            throw .unreadableStore(path: path, reason: error.message ?? error.description)
        } catch {
            throw .unreadableStore(path: path, reason: String(describing: error))
        }
    }
}
