import Foundation
import GRDB
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

/// An index of one folded key keeps the positions of its rows in buckets (`IndexRanks`), so
/// a late page of its order is found by position. The pages must be exactly those SQLite
/// gives stepping over the rows, after any mix of writes, and the buckets must count the
/// index's rows.
@Suite("DocumentStore: ranks of a folded index, late pages by position")
struct IndexRankTests {
    static let query = Query(selector: ["kind": "item"], sort: [SortField(field: "name", folded: true)])

    /// A store with a folded index on the items' names.
    static func store() throws -> (DocumentStore, TemporaryDirectory) {
        let (store, directory) = try makeStore()
        try store.ensureIndex([IndexField("name", folded: true)], name: "item-name", partialFilter: ["kind": "item"])
        return (store, directory)
    }

    /// A body with a name drawn from few enough words that names repeat (equal keys order
    /// by document number), sometimes with another case or accent, sometimes without a name
    /// (a NULL key, first in the order).
    static func body(_ random: inout SeededGenerator) -> JSONObject {
        if Int.random(in: 0..<40, using: &random) == 0 { return ["kind": "item"] }
        let words = ["apple", "Apple", "bread", "crème", "creme", "dal", "éclair", "fig", "gumbo", "hash"]
        let name = (0..<2).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            + " \(Int.random(in: 0..<50, using: &random))"
        return ["kind": "item", "name": .string(name)]
    }

    /// The IDs of the whole order, read without ranks (no skip).
    static func whole(_ store: DocumentStore) throws -> [String] {
        try #require(try store.findIDs(query))
    }

    /// Every late page, through `findIDs` and `find`, equals the same slice of the whole order.
    static func expectPages(_ store: DocumentStore, _ whole: [String], _ comment: String) throws {
        var skips = [0, 511, 512, 513, 700, whole.count / 2, whole.count - 3, whole.count, whole.count + 10]
        skips += stride(from: 600, to: whole.count, by: 377).map { $0 }
        for skip in skips {
            for limit in [1, 50] {
                var paged = query
                paged.skip = skip
                paged.limit = limit
                let expected = Array(whole.dropFirst(skip).prefix(limit))
                #expect(try store.findIDs(paged) == expected, "\(comment): skip \(skip), limit \(limit)")
                #expect(try store.find(paged).map(\.id) == expected, "\(comment): skip \(skip), limit \(limit)")
            }
        }
    }

    /// The buckets hold every keyed row of the index once, none more than twice the bucket
    /// size, each counting exactly the rows from its start to the next one's.
    static func expectBucketsCount(_ store: DocumentStore, _ comment: String) throws {
        try store.connection.reading { db in
            let index = try #require(try QueryIndex.all(db).first { $0.name == "item-name" })
            let ranks = try #require(index.ranks)
            let buckets = try Row.fetchAll(db, sql: "SELECT k, doc, rows FROM \(ranks.table) ORDER BY k, doc")
            let keyed = try Row.fetchAll(db, sql: "SELECT k0, doc_num FROM \(index.table) WHERE k0 IS NOT NULL ORDER BY k0, doc_num")
            var position = 0
            for (number, bucket) in buckets.enumerated() {
                let rows: Int = bucket[2]
                #expect(rows > 0 && rows <= 2 * IndexRanks.bucketSize, "\(comment): bucket \(number) holds \(rows)")
                if number == 0 { #expect(position == 0) }
                let end = number + 1 < buckets.count
                    ? keyed.firstIndex { !precedes($0, buckets[number + 1]) } ?? keyed.count
                    : keyed.count
                #expect(end - position == rows, "\(comment): bucket \(number) counts \(rows) of \(end - position) rows")
                position = end
            }
            #expect(position == keyed.count, "\(comment)")
            if !keyed.isEmpty {
                #expect(try ranks.seek(db, skip: keyed.count) != nil, "\(comment): the ranks add up to the row counter")
            }
        }
    }

    /// Whether the position (key, document number) of `a` comes before that of `b`.
    static func precedes(_ a: Row, _ b: Row) -> Bool {
        let (keyA, keyB) = (a[0] as Data, b[0] as Data)
        return keyA == keyB ? (a[1] as Int64) < (b[1] as Int64) : keyA.lexicographicallyPrecedes(keyB)
    }

    @Test func latePagesEqualSteppingOverTheRowsThroughEveryKindOfWrite() throws {
        let (store, directory) = try Self.store()
        _ = directory
        var random = SeededGenerator(seed: 27)
        // Created in batches: buckets fill and split.
        var revisions: [String: RevisionID] = [:]
        for batch in 0..<6 {
            let written = try store.write((0..<400).map { number in
                .create(id: "item-\(batch)-\(number)", body: Self.body(&random), attachments: [])
            })
            for revision in written { revisions[revision.id] = revision.rev }
        }
        try store.write((0..<30).map { .create(id: "note-\($0)", body: ["kind": "note", "name": "apple"], attachments: []) })
        try Self.expectBucketsCount(store, "created")
        try Self.expectPages(store, try Self.whole(store), "created")

        // Renamed (rows move between buckets), deleted (buckets empty and go), purged.
        var ids = revisions.keys.sorted()
        ids.shuffle(using: &random)
        let renamed = try store.write(ids.prefix(500).map { .update(id: $0, parent: revisions[$0]!, body: Self.body(&random), attachments: []) })
        for revision in renamed { revisions[revision.id] = revision.rev }
        let deleted = ids.dropFirst(500).prefix(900)
        try store.write(deleted.map { .delete(id: $0, parent: revisions[$0]!) })
        // Every row of the first names deleted: the first bucket's start is then no row at all.
        let first = try Self.whole(store).prefix(700)
        try store.write(first.map { .delete(id: $0, parent: revisions[$0]!) })
        let purged = ids.suffix(100).filter { !first.contains($0) }
        _ = try store.purge(Dictionary(uniqueKeysWithValues: purged.map { ($0, [revisions[$0]!]) }))
        try Self.expectBucketsCount(store, "changed")
        try Self.expectPages(store, try Self.whole(store), "changed")

        // Rows before every bucket, and back to one bucket.
        try store.write((0..<300).map { .create(id: "aaa-\($0)", body: ["kind": "item", "name": .string("AAA \($0)")], attachments: []) })
        try Self.expectBucketsCount(store, "prepended")
        try Self.expectPages(store, try Self.whole(store), "prepended")
    }

    /// A bucket that miscounts (as a store changed by a program that does not keep ranks
    /// would have), or holds a count that is no small positive integer (a damaged file):
    /// pages are still exact, stepped over instead, and nothing traps.
    @Test(arguments: ["rows + 7", "-3", "0", "9223372036854775807", "'many'", "1.5e300"])
    func bucketsThatDoNotAddUpAreNotUsed(_ damage: String) throws {
        let (store, directory) = try Self.store()
        var random = SeededGenerator(seed: 5)
        try store.write((0..<1500).map { .create(id: "item-\($0)", body: Self.body(&random), attachments: []) })
        let whole = try Self.whole(store)
        try store.close()
        let queue = try DatabaseQueue(path: directory.path("store.sqlite"))
        try queue.write { db in
            let table = try #require(try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'query_rank_%'"))
            try db.execute(sql: "UPDATE \(table) SET rows = \(damage) WHERE (k, doc) = (SELECT k, doc FROM \(table) ORDER BY k, doc LIMIT 1 OFFSET 2)")
        }
        try queue.close()
        let reopened = try DocumentStore(path: directory.path("store.sqlite"))
        try Self.expectPages(reopened, whole, "damaged: \(damage)")
    }

    /// A program from before ranks writes the index's rows without knowing the buckets: the
    /// triggers count its rows all the same, so pages stay exact and still seek.
    @Test func rowsWrittenByAProgramThatDoesNotKnowRanksAreCountedByTheTriggers() throws {
        let (store, directory) = try Self.store()
        var random = SeededGenerator(seed: 11)
        try store.write((0..<1500).map { .create(id: "item-\($0)", body: Self.body(&random), attachments: []) })
        try store.close()
        let queue = try DatabaseQueue(path: directory.path("store.sqlite"))
        try queue.write { db in
            let index = try #require(try QueryIndex.all(db).first { $0.name == "item-name" })
            let table = index.table
            // A rename (the row moves to the end), a removal, an insertion, a rename in place.
            try db.execute(sql: "UPDATE \(table) SET k0 = (SELECT max(k0) FROM \(table)) WHERE doc_num = (SELECT doc_num FROM \(table) ORDER BY k0, doc_num LIMIT 1 OFFSET 700)")
            try db.execute(sql: "DELETE FROM \(table) WHERE doc_num IN (SELECT doc_num FROM \(table) ORDER BY k0, doc_num LIMIT 40 OFFSET 900)")
            for (number, docNum) in try Int64.fetchAll(db, sql: "SELECT doc_num FROM \(table) ORDER BY k0 LIMIT 30 OFFSET 1000").enumerated() {
                try db.execute(sql: "DELETE FROM \(table) WHERE doc_num = ?", arguments: [docNum])
                try db.execute(sql: "INSERT INTO \(table) VALUES (?, (SELECT k0 FROM \(table) ORDER BY k0 LIMIT 1 OFFSET ?))", arguments: [docNum, 600 + number])
            }
            let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
            try db.execute(sql: "UPDATE counters SET value = ? WHERE name = ?", arguments: [rows, index.rowCounter])
        }
        try queue.close()
        let reopened = try DocumentStore(path: directory.path("store.sqlite"))
        try Self.expectBucketsCount(reopened, "written without ranks")
        let whole = try Self.whole(reopened)
        for skip in [600, 750, 1000, 1200, whole.count - 1] {
            var paged = Self.query
            paged.skip = skip
            paged.limit = 20
            #expect(try reopened.findIDs(paged) == Array(whole.dropFirst(skip).prefix(20)), "skip \(skip)")
        }
    }

    @Test func aStoreFromBeforeRanksGetsThemWhenItIsOpenedForWriting() throws {
        let (store, directory) = try Self.store()
        var random = SeededGenerator(seed: 9)
        try store.write((0..<1200).map { .create(id: "item-\($0)", body: Self.body(&random), attachments: []) })
        let whole = try Self.whole(store)
        try store.close()
        let path = directory.path("store.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for index in try QueryIndex.all(db) { try IndexRanks.dropTable(db, indexNumber: index.number) }
        }
        // An index without its rank table (as a program from before ranks would build it in
        // an upgraded store): pages are stepped to, and writes go on without ranks.
        let withoutRanks = try DocumentStore(path: path)
        try Self.expectPages(withoutRanks, whole, "without a rank table")
        let extra = try withoutRanks.create(id: "item-extra", body: ["kind": "item", "name": "Zucchini bread"])
        #expect(try Self.whole(withoutRanks).last == extra.id)
        try withoutRanks.delete(id: extra.id, parent: extra.rev)
        try withoutRanks.close()
        try queue.write { db in try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v7'") }
        try queue.close()
        // Read-only, the older schema is refused (bringing it up to date writes).
        var readOnly = DocumentStore.Options()
        readOnly.readOnly = true
        #expect(throws: DocumentStoreError.self) { try DocumentStore(path: path, options: readOnly) }
        let reopened = try DocumentStore(path: path)
        #expect(try countRows(path, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'query_rank_%'") == 1)
        try Self.expectBucketsCount(reopened, "migrated")
        try Self.expectPages(reopened, whole, "migrated")
    }

    @Test func onlyIndexesOfOneFoldedKeyKeepRanks() throws {
        let (store, directory) = try Self.store()
        try store.ensureIndex([IndexField("name")], name: "item-name-exact", partialFilter: ["kind": "item"])
        try store.ensureIndex([IndexField("kind"), IndexField("name", folded: true)], name: "kind-name")
        #expect(try countRows(directory.path("store.sqlite"), "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'query_rank_%'") == 1)
        #expect(try countRows(directory.path("store.sqlite"), "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'query_rank_%'") == 4)
        try store.dropIndex(name: "item-name")
        #expect(try countRows(directory.path("store.sqlite"), "SELECT count(*) FROM sqlite_master WHERE name LIKE 'query_rank_%'") == 0)
    }
}
