import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

@Suite struct CRUDTests {
    @Test func createReadUpdateDelete() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let first = try store.create(id: "recipe-1", body: ["name": "Soup", "minutes": 20])
        #expect(first.rev.generation == 1)
        #expect(first.rev.hash.count == 32)
        #expect(try store.get(id: "recipe-1")?.body == ["name": "Soup", "minutes": 20])

        let second = try store.update(id: "recipe-1", parent: first.rev, body: ["name": "Soup", "minutes": 25])
        #expect(second.rev.generation == 2)
        #expect(try store.get(id: "recipe-1")?.rev == second.rev)
        #expect(try store.get(id: "recipe-1", rev: first.rev)?.body["minutes"] == 20)
        #expect(try store.history(id: "recipe-1", rev: second.rev) == [second.rev, first.rev])

        let tombstone = try store.delete(id: "recipe-1", parent: second.rev)
        #expect(tombstone.deleted)
        #expect(tombstone.rev.generation == 3)
        #expect(try store.get(id: "recipe-1") == nil)
        #expect(try store.documentCount() == 0)
        #expect(try store.get(id: "recipe-1", rev: tombstone.rev)?.deleted == true)
        #expect(try store.leafRevisions(id: "recipe-1").map(\.rev) == [tombstone.rev])
        #expect(try store.get(id: "never-there") == nil)
    }

    @Test func staleParentIsAConflict() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let first = try store.create(id: "a", body: ["v": 1])
        _ = try store.update(id: "a", parent: first.rev, body: ["v": 2])
        #expect(throws: DocumentStoreError.conflict(id: "a")) {
            try store.update(id: "a", parent: first.rev, body: ["v": 3])
        }
        #expect(throws: DocumentStoreError.conflict(id: "a")) { try store.delete(id: "a", parent: first.rev) }
        #expect(throws: DocumentStoreError.conflict(id: "a")) { try store.create(id: "a", body: ["v": 9]) }
        #expect(throws: DocumentStoreError.conflict(id: "missing")) {
            try store.update(id: "missing", parent: first.rev, body: [:])
        }
        #expect(try store.get(id: "a")?.body == ["v": 2])
    }

    @Test func createOnTombstoneContinuesTheTree() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let first = try store.create(id: "a", body: ["v": 1])
        let tombstone = try store.delete(id: "a", parent: first.rev)
        #expect(throws: DocumentStoreError.conflict(id: "a")) { try store.delete(id: "a", parent: tombstone.rev) }
        let revived = try store.create(id: "a", body: ["v": 2])
        #expect(revived.rev.generation == 3)
        #expect(try store.history(id: "a", rev: revived.rev) == [revived.rev, tombstone.rev, first.rev])
        #expect(try store.get(id: "a")?.body == ["v": 2])
    }

    @Test func revisionIDsAreDeterministicAcrossStores() throws {
        let (one, d1) = try makeStore()
        let (two, d2) = try makeStore()
        _ = (d1, d2)
        let body: JSONObject = ["name": "Cake", "tags": ["sweet", "baked"], "nested": ["b": 1, "a": 2.5]]
        let a = try one.create(id: "cake", body: body)
        let b = try two.create(id: "cake", body: body)
        #expect(a.rev == b.rev)
        // Expected IDs are the ones CouchDB 3.4.3 gave the same writes, the body sent in
        // canonical order: PUT {"name":"Cake","nested":{"a":2.5,"b":1},"tags":["sweet","baked"]},
        // then PUT {"_rev":…,"name":"Cake 2"}.
        #expect(a.rev == rev("1-06529438af7cffd9e6fb0bcb221dcdee"))
        let a2 = try one.update(id: "cake", parent: a.rev, body: ["name": "Cake 2"])
        let b2 = try two.update(id: "cake", parent: b.rev, body: ["name": "Cake 2"])
        #expect(a2.rev == b2.rev)
        #expect(a2.rev == rev("2-d15128d591be34210ebf00b6866a4cc6"))
        // Each input changes the ID.
        let base = try RevisionHasher.revisionID(parent: a.rev, deleted: false, body: ["x": 1], attachments: [:])
        #expect(try base != RevisionHasher.revisionID(parent: b2.rev, deleted: false, body: ["x": 1], attachments: [:]))
        #expect(try base != RevisionHasher.revisionID(parent: a.rev, deleted: true, body: ["x": 1], attachments: [:]))
        #expect(try base != RevisionHasher.revisionID(parent: a.rev, deleted: false, body: ["x": 2], attachments: [:]))
        #expect(try base != RevisionHasher.revisionID(parent: a.rev, deleted: false, body: ["x": 1],
                                                  attachments: ["f": AttachmentInfo(contentType: "x/y", length: 1, digest: "md5-abc", revpos: 1)]))
    }

    @Test func generatedIDsAndAllDocuments() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let generated = try store.create(body: ["k": true])
        #expect(generated.id.count == 32)
        // Hex IDs sort before "x", so the generated one never falls inside the "x…" ranges.
        for name in ["xb", "xa", "xd", "xc"] { try store.create(id: name, body: ["n": .string(name)]) }
        let d = try #require(try store.get(id: "xd"))
        try store.delete(id: "xd", parent: d.rev)
        let ids = try store.allDocuments(AllDocsOptions(startKey: "xa", endKey: "xc")).map(\.id)
        #expect(ids == ["xa", "xb", "xc"])
        #expect(try store.allDocuments(AllDocsOptions(startKey: "xa", endKey: "xc", inclusiveEnd: false)).map(\.id) == ["xa", "xb"])
        #expect(try store.allDocuments(AllDocsOptions(startKey: "xc", endKey: "xa", descending: true)).map(\.id) == ["xc", "xb", "xa"])
        #expect(try store.allDocuments(AllDocsOptions(limit: 2, skip: 1)).map(\.id) == ["xa", "xb"])
        #expect(try store.documentCount() == 4)
    }

    @Test func valuesRoundTripExactly() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let body: JSONObject = [
            "int": .int(Int64.max), "min": .int(Int64.min), "double": 0.1, "whole": 3.0, "neg": -2.5e-8,
            "bool": false, "null": nil, "text": "quote \" backslash \\ newline \n tab \t é ✓ \u{1}",
            "array": [1, "two", [3], ["four": 4]], "empty": [:], "emptyArray": [],
        ]
        try store.create(id: "values", body: body)
        #expect(try store.get(id: "values")?.body == body)
    }

    @Test func storeIdentityIsStableAcrossReopen() throws {
        let directory = try TemporaryDirectory()
        let store = try DocumentStore(path: directory.path())
        let identity = store.storeID
        #expect(UUID(uuidString: identity) != nil)
        try store.create(id: "x", body: [:])
        try store.close()
        let reopened = try DocumentStore(path: directory.path())
        #expect(reopened.storeID == identity)
        #expect(try reopened.get(id: "x") != nil)
        let other = try DocumentStore(path: directory.path("other.sqlite"))
        #expect(other.storeID != identity)
    }
}
