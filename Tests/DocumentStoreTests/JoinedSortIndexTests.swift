import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

/// A sort key the chosen index lacks is read from another index joined by document number,
/// so SQLite orders the few rows the chosen index selects and only the page is read; and
/// `explainQueryPlan(_:)` shows it, naming index tables by their index.
@Suite("DocumentStore: sorting through a joined index, query plans")
struct JoinedSortIndexTests {
    /// Parts of three owners with ranks (one part without a rank), an index on the owner and
    /// one on the rank, both limited to parts.
    static func store() throws -> (DocumentStore, TemporaryDirectory) {
        let (store, directory) = try makeStore()
        var writes: [DocumentStore.WriteOperation] = []
        for owner in ["a", "b", "c"] {
            for rank in [5, 3, 9, 1, 7] {
                writes.append(.create(id: "\(owner)\(rank)", body: ["kind": "part", "owner": .string(owner), "rank": .int(Int64(rank))],
                                      attachments: []))
            }
        }
        writes.append(.create(id: "a-unranked", body: ["kind": "part", "owner": "a"], attachments: []))
        writes.append(.create(id: "other", body: ["kind": "note", "owner": "a", "rank": 0], attachments: []))
        try store.write(writes)
        try store.ensureIndex([IndexField("owner")], name: "part-owner", partialFilter: ["kind": "part"])
        try store.ensureIndex([IndexField("rank")], name: "part-rank", partialFilter: ["kind": "part"])
        return (store, directory)
    }

    @Test func equalityOnOneIndexSortedByAnotherReadsOnlyThePageInOrder() throws {
        let (store, directory) = try Self.store()
        _ = directory
        let query = Query(selector: ["kind": "part", "owner": "a"], sort: [SortField(field: "rank")], limit: 3)
        #expect(try store.explain(query) == "index part-owner")
        let steps = try store.explainQueryPlan(query)
        #expect(steps.contains { $0.contains("part-owner") && $0.contains("k0=?") }, "\(steps)")
        #expect(steps.contains { $0.contains("part-rank") }, "the rank comes from its index: \(steps)")
        // Only the sorted document numbers are read in order (`SCAN ordered`), no table.
        #expect(!steps.contains { $0.hasPrefix("SCAN") && $0 != "SCAN ordered" }, "\(steps)")
        // A missing rank sorts first, as it does in memory.
        #expect(try store.find(query).map(\.id) == ["a-unranked", "a1", "a3"])
        let descending = Query(selector: ["kind": "part", "owner": ["$in": ["a", "b"]]], sort: [SortField(field: "rank", ascending: false)],
                               limit: 4, skip: 1)
        #expect(try store.find(descending).map(\.id).map { $0.dropFirst() } == ["9", "7", "7", "5"])
        // The IDs come from the indexes alone, in the same page.
        #expect(try store.findIDs(query) == ["a-unranked", "a1", "a3"])
        #expect(try store.findIDs(descending) == (try store.find(descending).map(\.id)))
    }

    @Test func anIndexThatServesTheSortItselfIsPreferredOverAJoin() throws {
        let (store, directory) = try Self.store()
        _ = directory
        let query = Query(selector: ["kind": "part"], sort: [SortField(field: "rank")], limit: 2)
        #expect(try store.explain(query) == "index part-rank")
        let steps = try store.explainQueryPlan(query)
        #expect(!steps.contains { $0.contains("part-owner") }, "\(steps)")
        #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "the index gives the order: \(steps)")
        #expect(try store.find(query).map(\.id) == ["a-unranked", "a1"])
    }

    @Test func aPageOfManyMatchesWalksTheSortIndexInsteadOfSortingThemAll() throws {
        let (store, directory) = try makeStore()
        _ = directory
        var writes: [DocumentStore.WriteOperation] = []
        for owner in ["a", "b"] {
            for n in 0..<100 {
                writes.append(.create(id: "\(owner)-\(n)", body: ["kind": "part", "owner": .string(owner), "rank": .int(Int64((n * 37) % 100))],
                                      attachments: []))
            }
        }
        writes.append(.create(id: "a-unranked", body: ["kind": "part", "owner": "a"], attachments: []))
        try store.write(writes)
        // The owner index counts its rows per owner, so the planner knows a page of 3 of
        // owner a's 101 parts is reached after about 6 of the 201 ranks.
        try store.ensureIndex([IndexField("owner")], name: "part-owner", partialFilter: ["kind": "part"], countsByLeadingKey: true)
        try store.ensureIndex([IndexField("rank")], name: "part-rank", partialFilter: ["kind": "part"])
        for ascending in [true, false] {
            for skip in [0, 40] {
                let query = Query(selector: ["kind": "part", "owner": "a"], sort: [SortField(field: "rank", ascending: ascending)],
                                  limit: 3, skip: skip)
                #expect(try store.explain(query) == "index part-owner")
                let steps = try store.explainQueryPlan(query)
                #expect(steps.contains { $0.hasPrefix("SCAN walk_by_part-rank") }, "\(steps)")
                #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "nothing is sorted: \(steps)")
                var reference = query
                reference.useIndex = false
                let expected = try store.find(reference).map(\.id)
                #expect(expected.count == 3)
                #expect(try store.find(query).map(\.id) == expected, "ascending \(ascending), skip \(skip)")
                #expect(try store.findIDs(query) == expected, "ascending \(ascending), skip \(skip)")
            }
        }
        #expect(try store.find(Query(selector: ["kind": "part", "owner": "a"], sort: [SortField(field: "rank")], limit: 2)).map(\.id)
                == ["a-unranked", "a-0"])
        // All of them: sorting the owner's rows reads fewer than walking every rank.
        let whole = Query(selector: ["kind": "part", "owner": "a"], sort: [SortField(field: "rank")])
        #expect(!(try store.explainQueryPlan(whole)).contains { $0.hasPrefix("SCAN walk_by") })
        #expect(try store.find(whole).count == 101)
    }

    @Test func aSelectorNoIndexServesShowsItsScan() throws {
        let (store, directory) = try Self.store()
        _ = directory
        let query = Query(selector: ["colour": "red"])
        #expect(try store.explain(query) == "scan")
        #expect(try store.explainQueryPlan(query).contains { $0.hasPrefix("SCAN d") })
    }
}
