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
        try sets(at: url, folder: { (folder) throws(SampleSetError) in try SampleSetLoader().loadAll(in: folder) },
                 file: { (file) throws(SampleSetError) in try SampleSetLoader().load(contentsOf: file) },
                 store: { $0 })
    }

    /// The sets found at `url`, fully validated, for importing: a JSON set file is checked
    /// as ``SampleSetLoader/checkedSet(contentsOf:)`` does, so the importer reads it again a
    /// batch at a time instead of holding the whole set (same errors as
    /// ``sampleSets(at:)``).
    public static func importableSets(at url: URL) throws(SampleSourceError) -> [any ImportableSampleSet] {
        try sets(at: url, folder: { (folder) throws(SampleSetError) in try SampleSetLoader().checkAll(in: folder) },
                 file: { (file) throws(SampleSetError) in try SampleSetLoader().checkedSet(contentsOf: file) },
                 store: { $0 })
    }

    /// What `url` holds, told by its content: a folder of sets (`folder`), a Core Data store
    /// (read whole, then given to `store`) or one set file (`file`).
    private static func sets<Found>(at url: URL, folder: (URL) throws(SampleSetError) -> [Found],
                                    file: (URL) throws(SampleSetError) -> Found,
                                    store: (SampleSet) -> Found) throws(SampleSourceError) -> [Found] {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        do {
            if exists && isDirectory.boolValue {
                return try folder(url)
            }
        } catch {
            throw .sampleSet(error)
        }
        if exists && isSQLite(url) {
            do {
                return [store(try CoreDataStoreReader().read(storeAt: url))]
            } catch {
                throw .coreDataStore(error)
            }
        }
        do {
            return [try file(url)]
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
