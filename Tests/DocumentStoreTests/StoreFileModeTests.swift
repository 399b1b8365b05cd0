import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// A store file the store creates is its owner's alone, and so are the journal files SQLite
/// makes beside it; a file that already exists keeps its mode.
@Suite struct StoreFileModeTests {
    func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) & 0o777
    }

    @Test func newStoreFilesAreOwnerOnly() throws {
        let (store, directory) = try makeStore()
        _ = try store.create(id: "a", body: ["n": 1])
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasPrefix("store.sqlite") }
        #expect(files.contains("store.sqlite") && files.contains("store.sqlite-wal"))
        for file in files {
            #expect(try mode(directory.path(file)) == 0o600, "\(file)")
        }
    }

    @Test func anExistingFileKeepsItsModeAndContents() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path()
        do {
            let store = try DocumentStore(path: path)
            _ = try store.create(id: "a", body: ["n": 1])
            try store.close()
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        let reopened = try DocumentStore(path: path)
        #expect(try reopened.get(id: "a")?.body == ["n": 1])
        #expect(try mode(path) == 0o640)
    }
}
