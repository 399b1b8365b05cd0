public import Foundation

/// Reads sample sets from whatever a user points an import at: a JSON set file, a folder of
/// them, or a Core Data SQLite store of the original app.
///
/// The kind is taken from the content, not the name: a file that starts with SQLite's
/// header (`SQLite format 3\0`) is read as a Core Data store, any other file as a JSON set,
/// and a folder as every `*.json` set directly inside it.
public enum SampleSource {
    /// The 16-byte header every SQLite database file starts with.
    static let sqliteHeader = Data("SQLite format 3\u{0}".utf8)

    /// The sets found at `url`, fully validated.
    public static func sampleSets(at url: URL) throws(SampleSourceError) -> [SampleSet] {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        do {
            if exists && isDirectory.boolValue {
                return try SampleSetLoader().loadAll(in: url)
            }
        } catch {
            throw .sampleSet(error)
        }
        if exists && isSQLite(url) {
            do {
                return [try CoreDataStoreReader().read(storeAt: url)]
            } catch {
                throw .coreDataStore(error)
            }
        }
        do {
            return [try SampleSetLoader().load(contentsOf: url)]
        } catch {
            throw .sampleSet(error)
        }
    }

    /// The sets found at `url`, fully validated, for importing: a JSON set file is checked
    /// as ``SampleSetLoader/checkedSet(contentsOf:)`` does, so the importer reads it again a
    /// batch at a time instead of holding the whole set (same errors as
    /// ``sampleSets(at:)``).
    public static func importableSets(at url: URL) throws(SampleSourceError) -> [any ImportableSampleSet] {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        do {
            if exists && isDirectory.boolValue {
                return try SampleSetLoader().checkAll(in: url)
            }
        } catch {
            throw .sampleSet(error)
        }
        if exists && isSQLite(url) {
            do {
                return [try CoreDataStoreReader().read(storeAt: url)]
            } catch {
                throw .coreDataStore(error)
            }
        }
        do {
            return [try SampleSetLoader().checkedSet(contentsOf: url)]
        } catch {
            throw .sampleSet(error)
        }
    }

    /// Whether the file at `url` starts with the SQLite header.
    static func isSQLite(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: sqliteHeader.count)) ?? Data()
        return head == sqliteHeader
    }
}
