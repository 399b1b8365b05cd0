import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

/// Folded and partial query indexes, text indexes (`$text`), `_id` selectors and the
/// statistics `status` reads.
@Suite("DocumentStore: folded, partial and text indexes")
struct SearchIndexTests {
    /// A store with recipes and ingredients, a folded partial index on recipe names and text
    /// indexes on recipe and ingredient names.
    static func store() throws -> (DocumentStore, TemporaryDirectory) {
        let (store, directory) = try makeStore()
        try store.write([
            .create(id: "r1", body: ["kind": "recipe", "name": "Crème Brûlée"], attachments: []),
            .create(id: "r2", body: ["kind": "recipe", "name": "creme brulee"], attachments: []),
            .create(id: "r3", body: ["kind": "recipe", "name": "Apple Pie"], attachments: []),
            .create(id: "r4", body: ["kind": "recipe", "name": "zucchini bread"], attachments: []),
            .create(id: "i1", body: ["kind": "ingredient", "name": "Zanzibar cloves", "recipe": "r3"], attachments: []),
            .create(id: "i2", body: ["kind": "ingredient", "name": "Apple", "recipe": "r3"], attachments: []),
        ])
        try store.ensureIndex([IndexField("name", folded: true)], name: "recipe-name-folded", partialFilter: ["kind": "recipe"])
        try store.ensureTextIndex(field: "name", name: "recipe-name-text", partialFilter: ["kind": "recipe"])
        try store.ensureTextIndex(field: "name", name: "ingredient-name-text", partialFilter: ["kind": "ingredient"])
        return (store, directory)
    }

    static func ids(_ store: DocumentStore, _ selector: JSONValue, sort: [SortField] = []) throws -> [String] {
        try store.find(Query(selector: selector, sort: sort)).map(\.id)
    }

    @Test func foldedEqualityIsAnsweredByTheFoldedIndexAndCountedThere() throws {
        let (store, directory) = try Self.store()
        _ = directory
        let selector: JSONValue = ["kind": "recipe", "name": ["$foldEq": "CREME BRULEE"]]
        #expect(try Set(Self.ids(store, selector)) == ["r1", "r2"])
        #expect(try store.explain(Query(selector: selector)) == "index recipe-name-folded")
        #expect(try store.count(selector: selector) == 2)
        // Without the partial filter's equality the index cannot be used, and the answer is the same.
        #expect(try store.explain(Query(selector: ["name": ["$foldEq": "creme brulee"]])) == "scan")
        #expect(try Set(Self.ids(store, ["name": ["$foldEq": "creme brulee"]])) == ["r1", "r2"])
    }

    @Test func foldedSortOrdersIgnoringCaseAndAccentsFromTheIndex() throws {
        let (store, directory) = try Self.store()
        _ = directory
        let query = Query(selector: ["kind": "recipe"], sort: [SortField(field: "name", folded: true)], limit: 3)
        #expect(try store.explain(query) == "index recipe-name-folded")
        let names = try store.find(query).map { $0.body["name"]?.stringValue ?? "" }
        #expect(names.first == "Apple Pie")
        #expect(Set(names.dropFirst()) == ["Crème Brûlée", "creme brulee"])
        // A plain sort puts capitals first, as CouchDB's byte order does without folding.
        let plain = try store.find(Query(selector: ["kind": "recipe"], sort: [SortField(field: "name")])).map(\.id)
        #expect(plain == ["r3", "r1", "r2", "r4"])
    }

    @Test func idsComeFromTheIndexInTheSamePagesAsFind() throws {
        let (store, directory) = try Self.store()
        _ = directory
        let sort = [SortField(field: "name", folded: true)]
        for (skip, limit) in [(0, nil), (1, 2), (3, 5), (4, nil), (9, 1), (0, 0)] as [(Int, Int?)] {
            let query = Query(selector: ["kind": "recipe"], sort: sort, limit: limit, skip: skip)
            let ids = try store.findIDs(query)
            #expect(ids != nil, "an exact, ordered index plan lists IDs without bodies")
            #expect(ids == (try store.find(query).map(\.id)), "skip \(skip), limit \(String(describing: limit))")
        }
        // A selector the index cannot decide alone, or no usable order for a page: bodies are needed.
        #expect(try store.findIDs(Query(selector: ["kind": "recipe", "name": ["$gt": "b"]], sort: sort)) == nil)
        #expect(try store.findIDs(Query(selector: ["kind": "recipe"], limit: 2, skip: 1)) == nil)
        #expect(try store.findIDs(Query(selector: ["kind": "ingredient"], sort: sort)) == nil)
        // A deleted document leaves the listing.
        let first = try #require(try store.findIDs(Query(selector: ["kind": "recipe"], sort: sort))?.first)
        _ = try store.delete(id: first, parent: try #require(try store.get(id: first)).rev)
        #expect(try store.findIDs(Query(selector: ["kind": "recipe"], sort: sort))?.contains(first) == false)
    }

    @Test func textConditionsFindSubstringsIgnoringCaseAndAccents() throws {
        let (store, directory) = try Self.store()
        _ = directory
        let query = Query(selector: ["kind": "recipe", "name": ["$text": "RÛLÉ"]])
        #expect(try store.explain(query) == "candidates")
        #expect(try Set(Self.ids(store, query.selector)) == ["r1", "r2"])
        // The ingredient index is separate: a recipe query never sees ingredient rows.
        #expect(try Self.ids(store, ["kind": "ingredient", "name": ["$text": "zanzib"]]) == ["i1"])
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "zanzib"]]).isEmpty)
        // Texts shorter than a trigram are answered by reading the documents, with the same meaning.
        #expect(try Set(Self.ids(store, ["kind": "recipe", "name": ["$text": "RÛ"]])) == ["r1", "r2"])
    }

    @Test("any text is searched literally, never as query syntax", arguments: [
        "\"", "*", "\"creme\" OR apple", "NEAR(a b)", "a AND", "-", "((", "'; DROP TABLE docs; --",
    ])
    func textIsLiteral(_ text: String) throws {
        let (store, directory) = try Self.store()
        _ = directory
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": .string(text)]]).isEmpty)
        #expect(try store.documentCount() == 6)
    }

    @Test func textWithQuotesFindsTheNamesThatHoldThem() throws {
        let (store, directory) = try Self.store()
        _ = directory
        try store.create(id: "r5", body: ["kind": "recipe", "name": "The \"Best\" Brownies"])
        try store.create(id: "r6", body: ["kind": "recipe", "name": "Best \"\"Brownies\"\""])
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "\"best\" brow"]]) == ["r5"])
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "\"\"brownies\"\""]]) == ["r6"])
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "brownies\""]]) == ["r6"])
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "best\""]]) == ["r5"])
        #expect(try Set(Self.ids(store, ["kind": "recipe", "name": ["$text": "brownies"]])) == ["r5", "r6"])
    }

    @Test func textIndexFollowsEditsDeletionsAndReplicatedRevisions() throws {
        let (store, directory) = try Self.store()
        _ = directory
        let apple = try #require(try store.get(id: "r3"))
        // A rewrite that keeps the name keeps its text row as it was: still found, once.
        var served = apple.body
        served["serves"] = 4
        let kept = try store.update(id: "r3", parent: apple.rev, body: served)
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "apple"]]) == ["r3"])
        try store.update(id: "r3", parent: kept.rev, body: ["kind": "recipe", "name": "Pear Tart"])
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "apple"]]).isEmpty)
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "pear"]]) == ["r3"])
        let zucchini = try #require(try store.get(id: "r4"))
        try store.delete(id: "r4", parent: zucchini.rev)
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "zucchini"]]).isEmpty)
        // A revision that arrives by replication is indexed in the same transaction.
        let pulled = rev("1-0123456789abcdef0123456789abcdef")
        try store.insertRevisions([ReplicatedRevision(id: "r9", rev: pulled, body: ["kind": "recipe", "name": "Quince Jelly"],
                                                      history: [pulled])])
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "quince"]]) == ["r9"])
        // The FTS table holds exactly the live recipes.
        #expect(try countRows(store.path, "SELECT COUNT(*) FROM text_index_1") == 4)
    }

    @Test func documentIDSelectorsAndOrOfIndexedConditionsReadOnlyCandidates() throws {
        let (store, directory) = try Self.store()
        _ = directory
        #expect(try Set(Self.ids(store, ["_id": ["$in": ["r1", "r3", "nope"]]])) == ["r1", "r3"])
        #expect(try Self.ids(store, ["_id": "r2"]) == ["r2"])
        let either: JSONValue = ["kind": "recipe", "$or": [["name": ["$text": "apple"]], ["_id": "r4"]]]
        #expect(try store.explain(Query(selector: either)) == "candidates")
        #expect(try Set(Self.ids(store, either)) == ["r3", "r4"])
        #expect(try store.count(selector: either) == 2)
    }

    @Test func declaringAnIndexAgainWritesNothingAndAnotherFilterReplacesIt() throws {
        let (store, directory) = try Self.store()
        _ = directory
        let before = try store.lastSequence
        let walBefore = try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int
        try store.ensureIndex([IndexField("name", folded: true)], name: "recipe-name-folded", partialFilter: ["kind": "recipe"])
        try store.ensureTextIndex(field: "name", name: "recipe-name-text", partialFilter: ["kind": "recipe"])
        #expect(try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int == walBefore)
        #expect(try store.lastSequence == before)
        // What `ensure…` would find, asked without writing: only the exact declaration is.
        #expect(try store.withSnapshot { snapshot in
            try snapshot.isIndexDeclared([IndexField("name", folded: true)], name: "recipe-name-folded", partialFilter: ["kind": "recipe"])
                && snapshot.isTextIndexDeclared(field: "name", name: "recipe-name-text", partialFilter: ["kind": "recipe"])
        })
        #expect(try !store.isIndexDeclared([IndexField("name", folded: true)], name: "recipe-name-folded", partialFilter: ["kind": "ingredient"]))
        #expect(try !store.isIndexDeclared([IndexField("name", folded: true)], name: "recipe-name-folded", partialFilter: ["kind": "recipe"],
                                           countsByLeadingKey: true))
        #expect(try !store.isIndexDeclared([IndexField("name")], name: "recipe-name-folded", partialFilter: ["kind": "recipe"]))
        #expect(try !store.isTextIndexDeclared(field: "overview", name: "recipe-name-text", partialFilter: ["kind": "recipe"]))
        #expect(try !store.isTextIndexDeclared(field: "name", name: "no-such-index"))
        try store.ensureIndex([IndexField("name", folded: true)], name: "recipe-name-folded", partialFilter: ["kind": "ingredient"])
        #expect(try store.explain(Query(selector: ["kind": "ingredient", "name": ["$foldEq": "apple"]])) == "index recipe-name-folded")
        #expect(try Self.ids(store, ["kind": "ingredient", "name": ["$foldEq": "APPLE"]]) == ["i2"])
        try store.dropIndex(name: "recipe-name-folded")
        #expect(try store.indexNames().query.isEmpty)
    }

    @Test func conflictsAreCountedFromTheFlagAndPrefixesIncludeTombstones() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let root = rev("1-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
        let left = rev("2-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb")
        let right = rev("2-cccccccccccccccccccccccccccccccc")
        try store.insertRevisions([
            ReplicatedRevision(id: "doc-1", rev: left, body: ["v": 1], history: [left, root]),
            ReplicatedRevision(id: "doc-1", rev: right, body: ["v": 2], history: [right, root]),
        ])
        #expect(try store.conflictedDocumentCount() == 1)
        #expect(try store.conflictedDocumentIDs() == ["doc-1"])
        try store.resolveConflicts(id: "doc-1", keeping: right)
        #expect(try store.conflictedDocumentCount() == 0)
        let gone = try store.create(id: "other-1", body: [:])
        try store.delete(id: "other-1", parent: gone.rev)
        #expect(try store.hasDocuments(withIDPrefix: "other-"))
        #expect(try store.hasDocuments(withIDPrefix: "doc-"))
        #expect(try !store.hasDocuments(withIDPrefix: "missing-"))
    }

    @Test func aRefusedWriteInABatchKeepsTheOthersTextRows() throws {
        let (store, directory) = try Self.store()
        _ = directory
        let apple = try #require(try store.get(id: "r3"))
        // The text rows are written when the batch ends: the refusal between the writes
        // must not drop the first one's row, nor leave one for itself.
        let results = try store.writeEach([
            .create(id: "r5", body: ["kind": "recipe", "name": "Quince Jelly"], attachments: []),
            .update(id: "r3", parent: rev("9-00000000000000000000000000000000"), body: ["kind": "recipe", "name": "Plum Cake"], attachments: []),
            .update(id: "r3", parent: apple.rev, body: ["kind": "recipe", "name": "Pear Tart"], attachments: []),
            .create(id: "r6", body: ["kind": "recipe", "name": "Plum Jam"], attachments: []),
        ])
        #expect(results.map { (try? $0.get()) != nil } == [true, false, true, true])
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "quince"]]) == ["r5"])
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "plum"]]) == ["r6"])
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "pear"]]) == ["r3"])
        #expect(try Self.ids(store, ["kind": "recipe", "name": ["$text": "apple"]]).isEmpty)
        #expect(try countRows(store.path, "SELECT COUNT(*) FROM text_index_1") == 6)
    }

    @Test func countersAgreeWithTheRowsAfterEveryKindOfWrite() throws {
        let (store, directory) = try Self.store()
        _ = directory
        func check() throws {
            #expect(try store.documentCount() == countRows(store.path, "SELECT COUNT(*) FROM docs WHERE deleted = 0"))
            #expect(try store.count(selector: ["kind": "recipe"]) == countRows(store.path, "SELECT COUNT(*) FROM query_index_1"))
            #expect(try store.count(selector: ["kind": "recipe"]) == store.find(Query(selector: ["kind": "recipe"])).count)
            #expect(try store.changeCount(since: 0) == countRows(store.path, "SELECT COUNT(*) FROM docs"))
        }
        try check()
        // An edit that keeps every indexed key (its rows are left as they were).
        let unchanged = try #require(try store.get(id: "r3"))
        var served = unchanged.body
        served["serves"] = 4
        let pie = try store.update(id: "r3", parent: unchanged.rev, body: served)
        try check()
        // An edit that moves a document out of the partial index, and one that moves it back.
        let moved = try store.update(id: "r3", parent: pie.rev, body: ["kind": "ingredient", "name": "Apple Pie"])
        try check()
        try store.update(id: "r3", parent: moved.rev, body: ["kind": "recipe", "name": "Apple Pie"])
        try check()
        let zucchini = try #require(try store.get(id: "r4"))
        try store.delete(id: "r4", parent: zucchini.rev)
        try check()
        try store.create(id: "r4", body: ["kind": "recipe", "name": "Zucchini Fritters"])
        try check()
        // A design document is never counted by an index, and a failed batch changes nothing.
        try store.create(id: "_design/views", body: ["kind": "recipe", "name": "not a recipe"])
        #expect(try store.count(selector: ["kind": "recipe"]) == 4)
        #expect(throws: DocumentStoreError.self) {
            try store.write([.create(id: "r5", body: ["kind": "recipe"], attachments: []), .create(id: "r1", body: [:], attachments: [])])
        }
        try check()
        // Replicated revisions: a new document and a conflicting branch of an existing one.
        let one = rev("1-11111111111111111111111111111111")
        let two = rev("1-22222222222222222222222222222222")
        try store.insertRevisions([ReplicatedRevision(id: "r7", rev: one, body: ["kind": "recipe", "name": "Pulled"], history: [one]),
                                   ReplicatedRevision(id: "r7", rev: two, body: ["kind": "ingredient"], history: [two])])
        try check()
        #expect(try store.conflictedDocumentCount() == 1)
    }

    @Test func anIndexCountingByLeadingKeyCountsEachValueFromACounter() throws {
        let (store, directory) = try Self.store()
        _ = directory
        try store.ensureIndex([IndexField("kind")], name: "by-kind", countsByLeadingKey: true)
        func check() throws {
            for kind in ["recipe", "ingredient", "nothing"] {
                #expect(try store.count(selector: ["kind": .string(kind)]) == store.find(Query(selector: ["kind": .string(kind)])).count)
            }
            #expect(try store.count(selector: ["kind": ["$in": ["recipe", "ingredient", "recipe"]]])
                    == store.find(Query(selector: ["kind": ["$in": ["recipe", "ingredient"]]])).count)
        }
        try check()
        // A rewrite of the same kind leaves the row and its key's counter as they were.
        let unchanged = try #require(try store.get(id: "r3"))
        let pie = try store.update(id: "r3", parent: unchanged.rev, body: ["kind": "recipe", "name": "Apple Crumble"])
        try check()
        try store.update(id: "r3", parent: pie.rev, body: ["kind": "ingredient", "name": "Apple"])
        try check()
        let cloves = try #require(try store.get(id: "i1"))
        try store.delete(id: "i1", parent: cloves.rev)
        try check()
        #expect(try store.count(selector: ["kind": "ingredient"]) == 2)
        // Dropping the index drops its counters with it.
        try store.dropIndex(name: "by-kind")
        #expect(try countRows(store.path, "SELECT COUNT(*) FROM counters WHERE name GLOB 'index:*:*'") == 0)
        try check()
    }
}
