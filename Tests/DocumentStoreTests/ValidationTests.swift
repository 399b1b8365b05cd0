import Foundation
import Testing
@testable import DocumentStore
import DocumentFormat

@Suite struct ValidationTests {
    @Test(arguments: ["", "_design/", "_design", "_designer", "_local/x", "_anything", "_foo"])
    func refusesReservedDocumentIDs(_ id: String) throws {
        let (store, directory) = try makeStore()
        _ = directory
        #expect(throws: DocumentStoreError.invalidDocumentID(id)) { try store.create(id: id, body: [:]) }
        #expect(throws: DocumentStoreError.invalidDocumentID(id)) {
            try store.insertRevisions([ReplicatedRevision(id: id, rev: rev("1-a"), body: [:])])
        }
        #expect(try store.lastSequence == 0)
    }

    @Test func acceptsDesignDocumentsLikeAnyOther() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let created = try store.create(id: "_design/x", body: ["language": "javascript", "views": ["v": ["map": "function(doc){}"]]])
        #expect(try store.get(id: "_design/x")?.body["language"] == "javascript")
        let updated = try store.update(id: "_design/x", parent: created.rev, body: ["language": "query"])
        try store.insertRevisions([ReplicatedRevision(id: "_design/y", rev: rev("1-a"), body: ["views": [:]])])
        #expect(try store.get(id: "_design/y")?.rev == rev("1-a"))
        #expect(try store.changes(since: 0, limit: 10).changes.map(\.id).sorted() == ["_design/x", "_design/y"])
        // Queries never return design documents, as CouchDB's _find leaves them out.
        _ = try store.create(id: "plain", body: ["language": "query"])
        #expect(try store.find(Query(selector: [:])).map(\.id) == ["plain"])
        #expect(try store.find(Query(selector: ["language": "query"])).map(\.id) == ["plain"])
        // Counts leave them out too, whether read from an index alone or from the documents.
        try store.ensureIndex(fields: ["language"], name: "by-language")
        #expect(try store.count(selector: ["language": "query"]) == 1)
        #expect(try store.count(selector: [:]) == 1)
        _ = try store.delete(id: "plain", parent: try store.get(id: "plain")!.rev)
        _ = try store.delete(id: "_design/x", parent: updated.rev)
        #expect(try store.get(id: "_design/x") == nil)
        #expect(try store.documentCount() == 1)
    }

    @Test func refusesReservedTopLevelFields() throws {
        let (store, directory) = try makeStore()
        _ = directory
        #expect(throws: DocumentStoreError.reservedField(id: "a", field: "_attachments")) {
            try store.create(id: "a", body: ["_attachments": [:], "ok": 1])
        }
        let created = try store.create(id: "a", body: ["nested": ["_inner": 1]])   // only top level is reserved
        #expect(throws: DocumentStoreError.reservedField(id: "a", field: "_rev")) {
            try store.update(id: "a", parent: created.rev, body: ["_rev": "1-x"])
        }
        #expect(throws: DocumentStoreError.reservedField(id: "_local/cp", field: "_id")) {
            try store.putLocal(id: "cp", body: ["_id": "x"])
        }
    }

    @Test func refusesNonFiniteNumbers() throws {
        let (store, directory) = try makeStore()
        _ = directory
        #expect(throws: DocumentStoreError.self) { try store.create(id: "nan", body: ["x": .double(.nan)]) }
        do {
            try store.create(id: "inf", body: ["deep": [.double(.infinity)]])
            Issue.record("an infinite number was accepted")
        } catch let error as DocumentStoreError {
            guard case .invalidJSON(let reason) = error else { Issue.record("wrong error \(error)"); return }
            #expect(reason.contains("inf"))
        }
        #expect(try store.documentCount() == 0)
    }

    @Test func refusesMalformedHistories() throws {
        let (store, directory) = try makeStore()
        _ = directory
        #expect(throws: DocumentStoreError.self) {
            try store.insertRevisions([ReplicatedRevision(id: "d", rev: rev("3-c"), body: [:],
                                                          history: [rev("2-b"), rev("1-a")])])
        }
        #expect(throws: DocumentStoreError.self) {
            try store.insertRevisions([ReplicatedRevision(id: "d", rev: rev("3-c"), body: [:],
                                                          history: [rev("3-c"), rev("1-a")])])
        }
        #expect(try store.leafRevisions(id: "d").isEmpty)
    }

    @Test func refusesBadSelectorsAndIndexes() throws {
        let (store, directory) = try makeStore()
        _ = directory
        #expect(throws: DocumentStoreError.self) { try store.find(Query(selector: ["a": ["$regexp": "x"]])) }
        #expect(throws: DocumentStoreError.self) { try store.find(Query(selector: ["$or": 3])) }
        #expect(throws: DocumentStoreError.self) { try store.find(Query(selector: ["a": ["$in": 3]])) }
        #expect(throws: DocumentStoreError.self) { try store.find(Query(selector: ["a": ["$gt": 1, "b": 2]])) }
        #expect(throws: DocumentStoreError.self) { try store.find(Query(selector: [1, 2])) }
        #expect(throws: DocumentStoreError.self) { try store.ensureIndex(fields: [], name: "none") }
        #expect(throws: DocumentStoreError.self) { try store.ensureIndex(fields: ["a..b"], name: "bad") }
    }

    @Test func errorsNameCauseAndFix() {
        let text = DocumentStoreError.conflict(id: "doc-1").description
        #expect(text.contains("doc-1"))
        #expect(text.contains("retry"))
        #expect(DocumentStoreError.invalidDocumentID("_x").description.contains("putLocal"))
    }

    @Test func operationsAfterCloseFailWithTheSQLiteError() throws {
        let (store, directory) = try makeStore()
        _ = directory
        try store.close()
        do {
            _ = try store.get(id: "x")
            Issue.record("read after close succeeded")
        } catch let error as DocumentStoreError {
            // GRDB's "connection is closed", SQLITE_MISUSE, kept with its code.
            guard case .sqlite(let failure) = error else { Issue.record("wrong error \(error)"); return }
            #expect(failure.resultCode == 21)
            #expect(!error.isTransient)
        }
    }
}

@Suite struct BodyParsingTests {
    @Test func parsesObjectsAndRefusesEverythingElse() throws {
        #expect(try JSONValue.parseObject(Data(#"{"a":[1,2.5,"x",null,true]}"#.utf8)) == ["a": [1, 2.5, "x", nil, true]])
        #expect(try JSONValue.parse(Data("42".utf8)) == 42)
        for text in ["{", "{\"a\":}", "", "nope"] {
            do {
                _ = try JSONValue.parseObject(Data(text.utf8))
                Issue.record("accepted \(text)")
            } catch let error as DocumentFormatError {
                guard case .invalidJSON = error else { Issue.record("wrong error \(error)"); continue }
            }
        }
        #expect(throws: DocumentFormatError.invalidJSON("a document body must be a JSON object")) {
            try JSONValue.parseObject(Data("[1]".utf8))
        }
    }
}
