import Foundation
import GRDB
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

@Suite struct QueryTests {
    static let documents: [(String, JSONObject)] = [
        ("r1", ["type": "dessert", "name": "Apple pie", "minutes": 60, "rating": 4.5, "meta": ["author": "ann", "year": 2019]]),
        ("r2", ["type": "dessert", "name": "Brownies", "minutes": 35, "rating": 5, "tags": ["chocolate"]]),
        ("r3", ["type": "main", "name": "Curry", "minutes": 45, "rating": 4, "meta": ["author": "bob", "year": 2021]]),
        ("r4", ["type": "main", "name": "Dal", "minutes": 30, "vegan": true]),
        ("r5", ["type": "starter", "name": "Edamame", "minutes": 5, "rating": nil, "vegan": true]),
        ("r6", ["type": "main", "name": "Fish pie", "minutes": 50, "rating": 3, "vegan": false, "meta": ["author": "ann"]]),
        ("r7", ["name": "Gazpacho", "minutes": "cold"]),
    ]

    static func filledStore(indexed: Bool) throws -> (DocumentStore, TemporaryDirectory) {
        let (store, directory) = try makeStore()
        if indexed {   // declared before the writes: maintained on every write
            try store.ensureIndex(fields: ["type", "name"], name: "by-type-name")
        }
        try store.write(documents.map { .create(id: $0.0, body: $0.1, attachments: []) })
        if indexed {   // declared after the writes: built over what is there
            try store.ensureIndex(fields: ["minutes"], name: "by-minutes")
            try store.ensureIndex(fields: ["meta.author", "meta.year"], name: "by-author")
        }
        return (store, directory)
    }

    static let cases: [(JSONValue, [String])] = [
        ([:], ["r1", "r2", "r3", "r4", "r5", "r6", "r7"]),
        (["type": "main"], ["r3", "r4", "r6"]),
        (["type": ["$eq": "main"], "vegan": true], ["r4"]),
        (["type": ["$ne": "main"]], ["r1", "r2", "r5"]),
        (["minutes": ["$gt": 30, "$lte": 50]], ["r2", "r3", "r6"]),
        (["minutes": ["$gte": 30]], ["r1", "r2", "r3", "r4", "r6", "r7"]),   // strings collate after numbers
        (["minutes": ["$lt": 30]], ["r5"]),
        (["type": ["$in": ["starter", "dessert"]]], ["r1", "r2", "r5"]),
        (["type": ["$nin": ["starter", "dessert"]]], ["r3", "r4", "r6"]),
        (["rating": ["$exists": true]], ["r1", "r2", "r3", "r5", "r6"]),
        (["rating": ["$exists": false]], ["r4", "r7"]),
        (["rating": nil], ["r5"]),
        (["rating": 5.0], ["r2"]),
        (["meta.author": "ann"], ["r1", "r6"]),
        (["meta": ["author": "ann", "year": 2019]], ["r1"]),
        (["meta.year": ["$gt": 2000]], ["r1", "r3"]),
        (["$or": [["type": "starter"], ["minutes": ["$gte": 60]]]], ["r1", "r5", "r7"]),   // "cold" > every number
        (["$and": [["type": "main"], ["minutes": ["$lt": 50]]]], ["r3", "r4"]),
        (["$not": ["type": "main"]], ["r1", "r2", "r5", "r7"]),
        (["$nor": [["type": "main"], ["type": "dessert"]]], ["r5", "r7"]),
        (["rating": ["$not": ["$gt": 4]]], ["r3", "r5", "r6"]),
        (["tags": ["chocolate"]], ["r2"]),
        (["type": "main", "name": ["$gt": "D"]], ["r4", "r6"]),
        (["type": "none"], []),
        (["minutes": ["$gt": 40, "$lt": 35]], []),
    ]

    @Test func selectorsMatchWithAndWithoutIndexes() throws {
        let (plain, d1) = try Self.filledStore(indexed: false)
        let (indexed, d2) = try Self.filledStore(indexed: true)
        _ = (d1, d2)
        for (selector, expected) in Self.cases {
            for store in [plain, indexed] {
                for useIndex in [true, false] {
                    var query = Query(selector: selector)
                    query.useIndex = useIndex
                    let ids = try store.find(query).map(\.id).sorted()
                    #expect(ids == expected, "selector \(selector) useIndex \(useIndex)")
                }
            }
            #expect(try indexed.count(selector: selector) == expected.count)
        }
    }

    /// A query's prepared statement is kept for the next query of the same text; a query
    /// run while the rows of the same one are still being read (from the body of
    /// `forEachMatch`, inside one snapshot) must neither reset nor disturb the first.
    @Test("the same query run again while its rows are being read: both read every row", arguments: [false, true])
    func sameQueryInsideItsOwnReading(indexed: Bool) throws {
        let (store, directory) = try Self.filledStore(indexed: indexed)
        _ = directory
        let query = Query(selector: ["type": ["$in": ["main", "dessert"]]], sort: indexed ? [SortField(field: "type"), SortField(field: "name")] : [])
        let expected = try store.find(query).map(\.id)
        #expect(expected.count == 5)
        try store.withSnapshot { snapshot in
            for _ in 0..<2 {
                var outer: [String] = []
                var inner: [[String]] = []
                try snapshot.forEachMatch(of: query) { revision in
                    outer.append(revision.id)
                    inner.append(try snapshot.find(query).map(\.id))
                }
                #expect(outer == expected)
                #expect(inner == Array(repeating: expected, count: expected.count))
            }
        }
    }

    @Test("fields: only the asked members are read and returned; matching and sorting still see theirs",
          arguments: [false, true])
    func fieldsReadOnlyWhatIsAsked(indexed: Bool) throws {
        let (store, directory) = try Self.filledStore(indexed: indexed)
        _ = directory
        var query = Query(selector: ["type": "main", "meta.author": "ann"], sort: [SortField(field: "minutes")])
        query.fields = ["name", "tags"]
        let found = try store.find(query)
        #expect(found.map(\.id) == ["r6"])
        #expect(found.first?.body == ["name": "Fish pie"])
        query = Query(selector: ["minutes": ["$gt": 20]], sort: [SortField(field: "rating", ascending: false)], limit: 3, skip: 1)
        let whole = try store.find(query)
        query.fields = ["name"]
        let partial = try store.find(query)
        #expect(partial.map(\.id) == whole.map(\.id))
        #expect(partial.map(\.body) == whole.map { ["name": $0.body["name"]!] })
        #expect(partial.map(\.rev) == whole.map(\.rev))
    }

    @Test("fields of long bodies: read from their beginning, the same members as a whole read",
          arguments: [false, true])
    func fieldsOfLongBodies(indexed: Bool) throws {
        let (store, directory) = try makeStore()
        _ = directory
        if indexed { try store.ensureIndex(fields: ["kind", "name"], name: "by-kind-name") }
        // Type-like documents: a name before a list far longer than a row brings inline, and
        // a member after it; one short document beside them.
        var writes: [DocumentStore.WriteOperation] = []
        for (index, count) in [(0, 3_000), (1, 700), (2, 20_000)] {
            let list = JSONValue.array((0..<count).map { .string("recipe-\(index)-\($0)") })
            writes.append(.create(id: "type-\(index)", body: ["kind": "type", "name": .string("Type \(index)"), "recipes": list, "zeta": .string("end \(index)")], attachments: []))
        }
        writes.append(.create(id: "type-short", body: ["kind": "type", "name": "Short", "zeta": "end short"], attachments: []))
        try store.write(writes)

        let sort = [SortField(field: "kind"), SortField(field: "name")]
        let whole = try store.find(Query(selector: ["kind": "type"], sort: sort))
        #expect(whole.count == 4)
        for fields in [["name"], ["zeta"], ["name", "zeta"], ["recipes"]] {
            var query = Query(selector: ["kind": "type"], sort: sort)
            query.fields = fields
            #expect(try store.find(query).map(\.body) == whole.map { $0.body.filter { fields.contains($0.key) } }, "fields \(fields)")
            // A late page (its rows read by ID) and a match on the member after the list.
            query.skip = 2
            query.limit = 5
            #expect(try store.find(query).map(\.body) == whole.dropFirst(2).map { $0.body.filter { fields.contains($0.key) } }, "late page, fields \(fields)")
        }
        var query = Query(selector: ["zeta": "end 2"])
        query.fields = ["name"]
        #expect(try store.find(query).map(\.body) == [["name": "Type 2"]])
    }

    @Test func partialParsingStepsOverAnyValueAndStillRefusesBrokenText() throws {
        // Canonical text (keys in UTF-8 order, as stored bodies are): the values before and
        // between the wanted members are stepped over, whatever their shape.
        let text = #"{"a": [1, {"a": "x]}\"y", "b": [[], {}]}, -2.5e3, true, null, "[{"], "keep": {"n": [1, 2]}, "m": {"[": "}"}, "s": "t\u00e9"}"#
        let kept = try JSONParser.parseObject(Data(text.utf8), keeping: ["keep", "s"])
        #expect(kept == ["keep": ["n": [1, 2]], "s": "té"])
        #expect(try JSONParser.parseObject(Data(text.utf8), keeping: ["zz"]) == [:])
        for broken in [#"{"skip": [1, 2"#, #"{"skip": "open}"#, #"{"skip": 1"#, #"["not", "an object"]"#, #"{"skip": 1} x"#] {
            #expect(throws: DocumentFormatError.self, "\(broken)") { try JSONParser.parseObject(Data(broken.utf8), keeping: ["zz"]) }
        }
        // The reading stops at the first key after every wanted one: what follows (here a
        // list cut short) is not read at all.
        let typeBody = #"{"CDTISEntityName": "RecipeType", "name": "Soup", "recipes": ["r1", "r2", "#
        #expect(try JSONParser.parseObject(Data(typeBody.utf8), keeping: ["CDTISEntityName", "name"])
                == ["CDTISEntityName": "RecipeType", "name": "Soup"])
        #expect(throws: DocumentFormatError.self) { try JSONParser.parseObject(Data(typeBody.utf8), keeping: ["name", "recipes"]) }
    }

    @Test func sortLimitAndSkip() throws {
        let (store, directory) = try Self.filledStore(indexed: true)
        _ = directory
        for useIndex in [true, false] {
            var query = Query(selector: ["type": "main"], sort: [SortField(field: "name", ascending: false)], limit: 2)
            query.useIndex = useIndex
            #expect(try store.find(query).map(\.id) == ["r6", "r4"])
            query.skip = 1
            #expect(try store.find(query).map(\.id) == ["r4", "r3"])
            var byTime = Query(selector: ["minutes": ["$gte": 0]], sort: [SortField(field: "minutes")], limit: 3)
            byTime.useIndex = useIndex
            #expect(try store.find(byTime).map(\.id) == ["r5", "r4", "r2"])
            var missingFirst = Query(selector: [:], sort: [SortField(field: "rating"), SortField(field: "name")])
            missingFirst.useIndex = useIndex
            #expect(try store.find(missingFirst).map(\.id) == ["r4", "r7", "r5", "r6", "r3", "r1", "r2"])
        }
        #expect(try store.find(Query(selector: [:], limit: 0)).isEmpty)
    }

    @Test func queriesReadThroughACoveringIndex() throws {
        let (store, directory) = try Self.filledStore(indexed: true)
        _ = directory
        func plan(_ selector: JSONValue, _ sort: [SortField] = []) throws -> QueryPlan {
            try store.connection.reading { db in
                QueryPlan.choose(selector: try Selector(parsing: selector),
                                 sort: try DocumentStore.sortKeys(sort),
                                 indexes: try QueryIndex.all(db))
            }
        }
        let typed = try plan(["type": "main"], [SortField(field: "name")])
        #expect(typed.index?.name == "by-type-name")
        #expect(typed.ordered)
        #expect(try plan(["minutes": ["$gt": 3]]).index?.name == "by-minutes")
        #expect(try plan(["meta.author": "ann", "meta.year": 2019]).index?.name == "by-author")
        #expect(try plan(["vegan": true]).index == nil)
        let unsortable = try plan(["type": "main"], [SortField(field: "rating")])
        #expect(unsortable.index?.name == "by-type-name")
        #expect(!unsortable.ordered)
        // Counts come from the index alone only when its clauses decide the whole selector.
        #expect(try plan(["type": "main"]).exact)
        #expect(try plan(["type": ["$in": ["main", "starter"]]]).exact)
        #expect(try plan(["type": "main", "name": "Dal"]).exact)
        #expect(try !plan(["type": "main", "vegan": true]).exact)          // vegan is not in the index
        #expect(try !plan(["type": "main", "name": ["$gt": "D"]]).exact)   // a range is checked on bodies
        #expect(try !plan(["minutes": 30]).exact)                          // numbers: keys coarser than equality
        #expect(try !plan(["$or": [["type": "main"], ["type": "starter"]]]).exact)
    }

    @Test func indexOnlyCountsFollowWrites() throws {
        let (store, directory) = try Self.filledStore(indexed: true)
        _ = directory
        #expect(try store.count(selector: ["type": "main"]) == 3)
        #expect(try store.count(selector: [:]) == 7)
        let dal = try #require(try store.get(id: "r4"))
        try store.update(id: "r4", parent: dal.rev, body: ["type": "starter", "name": "Dal soup"])
        let curry = try #require(try store.get(id: "r3"))
        try store.delete(id: "r3", parent: curry.rev)
        #expect(try store.count(selector: ["type": "main"]) == 1)
        #expect(try store.count(selector: ["type": ["$in": ["main", "starter"]]]) == 3)
        #expect(try store.count(selector: ["type": "starter", "name": "Dal soup"]) == 1)
        #expect(try store.count(selector: [:]) == 6)
    }

    @Test func indexesFollowUpdatesDeletesAndConflicts() throws {
        let (store, directory) = try Self.filledStore(indexed: true)
        _ = directory
        let dal = try #require(try store.get(id: "r4"))
        try store.update(id: "r4", parent: dal.rev, body: ["type": "starter", "name": "Dal soup", "minutes": 30])
        let curry = try #require(try store.get(id: "r3"))
        try store.delete(id: "r3", parent: curry.rev)
        #expect(try store.find(Query(selector: ["type": "main"])).map(\.id) == ["r6"])
        #expect(try store.find(Query(selector: ["type": "starter"], sort: [SortField(field: "name")])).map(\.id) == ["r4", "r5"])
        // A replicated revision that becomes the winner moves the document in the index.
        let fish = try #require(try store.get(id: "r6"))
        let newer = RevisionID(generation: 2, hash: "ffffffff")
        try store.insertRevisions([ReplicatedRevision(id: "r6", rev: newer, body: ["type": "dessert", "name": "Fish pie"],
                                                      history: [newer, fish.rev])])
        #expect(try store.find(Query(selector: ["type": "main"])).isEmpty)
        #expect(try store.find(Query(selector: ["type": "dessert"])).map(\.id).sorted() == ["r1", "r2", "r6"])
        // Redeclaring the same index changes nothing; another field set under the name rebuilds it.
        try store.ensureIndex(fields: ["type", "name"], name: "by-type-name")
        try store.ensureIndex(fields: ["vegan"], name: "by-type-name")
        #expect(try store.find(Query(selector: ["vegan": true])).map(\.id) == ["r5"])
    }

    @Test func deeplyNestedAndEscapedPaths() throws {
        let (store, directory) = try makeStore()
        _ = directory
        try store.create(id: "n", body: ["a": ["b": ["c": 1]], "dotted.key": "yes"])
        #expect(try store.find(Query(selector: ["a.b.c": 1])).map(\.id) == ["n"])
        #expect(try store.find(Query(selector: ["dotted\\.key": "yes"])).map(\.id) == ["n"])
        try store.ensureIndex(fields: ["a.b.c"], name: "deep")
        #expect(try store.find(Query(selector: ["a.b.c": ["$gte": 1]])).map(\.id) == ["n"])
    }
}

extension QueryTests {
    @Test("a late page of a sorted index read by its IDs equals the same page stepped to, design documents left out, deleted ones too")
    func latePagesReadByIDs() throws {
        let (store, directory) = try makeStore()
        _ = directory
        try store.ensureIndex(fields: ["kind", "name"], name: "by-kind-name")
        var writes: [DocumentStore.WriteOperation] = []
        for index in 0..<40 {
            let name = String(format: "Dish %02d", (index * 17) % 40)
            let body: JSONObject = ["kind": "recipe", "name": .string(name), "notes": .string(String(repeating: "n", count: index))]
            writes.append(.create(id: "doc-\(index)", body: body, attachments: []))
        }
        try store.write(writes)
        // Would sort first and shift every page if it were counted.
        try store.create(id: "_design/views", body: ["kind": "recipe", "name": "Dish 00 design"])
        let deleted = try #require(try store.get(id: "doc-3"))
        try store.delete(id: "doc-3", parent: deleted.rev)

        func page(skip: Int, limit: Int, fields: [String]?) throws -> [DocumentRevision] {
            var query = Query(selector: ["kind": "recipe"], sort: [SortField(field: "kind"), SortField(field: "name")], limit: limit, skip: skip)
            query.fields = fields
            return try store.find(query)
        }
        let everything = try page(skip: 0, limit: DocumentStore.latePageLimit + 1, fields: nil)
        #expect(everything.count == 39 && !everything.contains { $0.id.hasPrefix("_design/") || $0.id == "doc-3" })
        for (skip, limit) in [(1, 5), (10, 7), (35, 10), (39, 3), (60, 5)] {
            let expected = Array(everything.dropFirst(skip).prefix(limit))
            #expect(try page(skip: skip, limit: limit, fields: nil) == expected, "skip \(skip), limit \(limit)")
            #expect(try page(skip: skip, limit: limit, fields: ["name"]).map(\.body) == expected.map { ["name": $0.body["name"]!] })
            #expect(try page(skip: skip, limit: limit, fields: ["name"]).map(\.id) == expected.map(\.id))
        }
    }
}
