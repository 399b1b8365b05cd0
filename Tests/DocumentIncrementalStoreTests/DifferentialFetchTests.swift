import TestSupport
import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore


@Suite("Differential fetches: document store vs in-memory store")
struct DifferentialFetchTests {
    static let model = TestSupport.model("""
        <entity name="Item">
            <attribute name="serial" attributeType="Integer 64"/>
            <attribute name="name" optional="YES" attributeType="String" indexed="YES"/>
            <attribute name="score" optional="YES" attributeType="Double"/>
            <attribute name="count" optional="YES" attributeType="Integer 32"/>
            <attribute name="flag" optional="YES" attributeType="Boolean"/>
            <attribute name="when" optional="YES" attributeType="Date"/>
            <relationship name="category" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Category" inverseName="items" inverseEntity="Category"/>
        </entity>
        <entity name="Category">
            <attribute name="serial" attributeType="Integer 64"/>
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="category" inverseEntity="Item"/>
        </entity>
        """, name: "Differential")

    static let names: [AttributeValue] = [.null, .string(""), .string("apple"), .string("Apple"), .string("apricot"), .string("banana"),
                                          .string("cherry"), .string("crème"), .string("çava"), .string("日本"), .string("zucchini"), .string("ap")]
    static let scores: [AttributeValue] = [.null, .double(-1.5), .double(0), .double(2.5), .double(3), .double(10.25), .double(.infinity), .double(-.infinity), .double(1e300)]
    static let counts: [AttributeValue] = [.null, .int(-3), .int(0), .int(1), .int(2), .int(7), .int(100), .int(Int64(Int32.max))]
    static let dates: [AttributeValue] = [.null] + (0..<6).map { .date(Date(timeIntervalSince1970: 1_600_000_000 + Double($0) * 86_400.5)) }
    static let categoryNames: [AttributeValue] = [.null, .string("Dessert"), .string("Main"), .string("Soup"), .string("dessert")]

    /// Builds the same random graph in a context of each store.
    private func populate(_ ctx: ObjectContext, seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var categories: [ManagedObject] = []
        for i in 0..<6 {
            let c = try ctx.insert("Category")
            try c.setValue(.int(Int64(i)), forKey: "serial")
            try c.setValue(Self.categoryNames[i % Self.categoryNames.count], forKey: "name")
            categories.append(c)
        }
        for i in 0..<120 {
            let item = try ctx.insert("Item")
            try item.setValue(.int(Int64(i)), forKey: "serial")
            try item.setValue(Self.names.randomElement(using: &rng)!, forKey: "name")
            try item.setValue(Self.scores.randomElement(using: &rng)!, forKey: "score")
            try item.setValue(Self.counts.randomElement(using: &rng)!, forKey: "count")
            let f = Int.random(in: 0..<3, using: &rng)
            try item.setValue(f == 0 ? .null : .bool(f == 1), forKey: "flag")
            try item.setValue(Self.dates.randomElement(using: &rng)!, forKey: "when")
            let c = Int.random(in: 0...categories.count, using: &rng)
            if c < categories.count { try item.setObject(categories[c], forKey: "category") }
        }
        try ctx.save()
    }

    private func constant(_ key: String, _ rng: inout SeededGenerator) -> AttributeValue {
        switch key {
        case "name": return Self.names.randomElement(using: &rng)!
        case "score": return [AttributeValue.double(2.5), .double(0), .double(-2), .double(5), .int(3), .null].randomElement(using: &rng)!
        case "count": return Self.counts.randomElement(using: &rng)!
        case "flag": return [AttributeValue.bool(true), .bool(false), .null, .int(1)].randomElement(using: &rng)!
        case "when": return Self.dates.randomElement(using: &rng)!
        default: return Self.categoryNames.randomElement(using: &rng)!
        }
    }

    private func comparison(_ rng: inout SeededGenerator, categoryIDs: [ObjectID]) -> ObjectPredicate {
        let keys = ["name", "score", "count", "flag", "when", "category.name", "category", "category.serial"]
        let key = keys.randomElement(using: &rng)!
        if key == "category" {
            let target: ObjectGraph.PredicateExpression = Bool.random(using: &rng) ? .constant(.null) : .object(categoryIDs.randomElement(using: &rng)!)
            let op: PredicateOperator = Bool.random(using: &rng) ? .equal : .notEqual
            return .comparison(PredicateComparison(.keyPath(key), op, target))
        }
        if key == "category.serial" {
            return .comparison(PredicateComparison(.keyPath(key), [.lessThan, .equal, .greaterThanOrEqual].randomElement(using: &rng)!, .constant(.int(Int64.random(in: 0..<6, using: &rng)))))
        }
        let isString = key == "name" || key == "category.name"
        var ops: [PredicateOperator] = [.equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .in, .between]
        if isString { ops += [.beginsWith, .beginsWith, .contains, .endsWith, .like] }
        let op = ops.randomElement(using: &rng)!
        var options: ComparisonOptions = []
        if isString && Int.random(in: 0..<4, using: &rng) == 0 { options = .caseInsensitive }
        switch op {
        case .in:
            let values = (0..<Int.random(in: 1...3, using: &rng)).map { _ in ObjectGraph.PredicateExpression.constant(constant(key, &rng)) }
            return .comparison(PredicateComparison(.keyPath(key), .in, .aggregate(values), options: options))
        case .between:
            var a = constant(key, &rng), b = constant(key, &rng)
            if let order = AttributeValue.compare(a, b), order == .orderedDescending { swap(&a, &b) }
            return .comparison(PredicateComparison(.keyPath(key), .between, .aggregate([.constant(a), .constant(b)])))
        case .beginsWith, .contains, .endsWith:
            let text = ["a", "ap", "Ap", "", "an", "crè", "日"].randomElement(using: &rng)!
            return .comparison(PredicateComparison(.keyPath(key), op, .constant(.string(text)), options: options))
        case .like:
            return .comparison(PredicateComparison(.keyPath(key), .like, .constant(.string(["a*", "*e*", "?a*"].randomElement(using: &rng)!)), options: options))
        default:
            return .comparison(PredicateComparison(.keyPath(key), op, .constant(constant(key, &rng)), options: options))
        }
    }

    private func predicate(_ rng: inout SeededGenerator, depth: Int, categoryIDs: [ObjectID]) -> ObjectPredicate {
        let roll = Int.random(in: 0..<10, using: &rng)
        if depth >= 2 || roll < 5 { return comparison(&rng, categoryIDs: categoryIDs) }
        let parts = (0..<Int.random(in: 2...3, using: &rng)).map { _ in predicate(&rng, depth: depth + 1, categoryIDs: categoryIDs) }
        switch roll {
        case 5, 6, 7: return .and(parts)
        case 8: return .or(parts)
        default: return .not(parts[0])
        }
    }

    private func serials(_ ctx: ObjectContext, _ request: FetchRequest) throws -> [Int64] {
        try ctx.fetch(request).map { try $0.int("serial") ?? -1 }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func randomFetchesMatchTheInMemoryStore(seed: UInt64) throws {
        let memoryCoordinator = try PersistentStoreCoordinator(model: Self.model, store: InMemoryStore())
        let memory = ObjectContext(coordinator: memoryCoordinator, name: "memory")
        let stack = try DocumentStack(model: Self.model)
        let documents = stack.context("documents")
        try populate(memory, seed: seed)
        try populate(documents, seed: seed)
        func categoryIDs(_ ctx: ObjectContext) throws -> [ObjectID] {
            try ctx.fetch(FetchRequest(entityName: "Category", sortDescriptors: [FetchSortDescriptor("serial")])).map(\.objectID)
        }
        let memoryCategories = try categoryIDs(memory), documentCategories = try categoryIDs(documents)
        var rng = SeededGenerator(seed: seed &* 7919)
        var fullyPushed = 0, partlyPushed = 0
        for round in 0..<100 {
            var localRng = rng
            let p1 = predicate(&rng, depth: 0, categoryIDs: memoryCategories)
            let p2 = predicate(&localRng, depth: 0, categoryIDs: documentCategories)
            let sortKeys = ["name", "score", "count", "when", "flag", "category.name"]
            var sorts: [FetchSortDescriptor] = []
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                sorts.append(FetchSortDescriptor(sortKeys.randomElement(using: &rng)!, ascending: Bool.random(using: &rng),
                                                 caseInsensitive: Int.random(in: 0..<5, using: &rng) == 0))
            }
            sorts.append(FetchSortDescriptor("serial", ascending: Bool.random(using: &rng)))
            let limit: Int? = Bool.random(using: &rng) ? Int.random(in: 1...15, using: &rng) : nil
            let offset = Int.random(in: 0..<3, using: &rng) == 0 ? Int.random(in: 1...5, using: &rng) : 0
            let expected = try serials(memory, FetchRequest(entityName: "Item", predicate: p1, sortDescriptors: sorts, fetchLimit: limit, fetchOffset: offset))
            let actual = try serials(documents, FetchRequest(entityName: "Item", predicate: p2, sortDescriptors: sorts, fetchLimit: limit, fetchOffset: offset))
            #expect(actual == expected, "round \(round): \(p1) sorted by \(sorts) limit \(String(describing: limit)) offset \(offset)")
            let unsortedExpected = try serials(memory, FetchRequest(entityName: "Item", predicate: p1)).sorted()
            let unsortedActual = try serials(documents, FetchRequest(entityName: "Item", predicate: p2)).sorted()
            #expect(unsortedActual == unsortedExpected, "round \(round) unsorted: \(p1)")
            let pushed = try stack.store.execute(StoreFetchRequest(entityNames: ["Item"], predicate: p2))
            if pushed.residualPredicate == nil { fullyPushed += 1 } else if pushed.residualPredicate != p2 { partlyPushed += 1 }
        }
        // Categories: to-many quantifiers, counts, aggregates and regular expressions, which
        // the datastore cannot express, mixed with attribute comparisons it can.
        for round in 0..<40 {
            let formats = ["ANY items.score > %@", "ALL items.count >= %@", "NONE items.name BEGINSWITH 'a'",
                           "items.@count > %@", "name MATCHES '[DM].*'", "items.@sum.count > %@", "SELF == %@",
                           "name == 'Dessert' OR ANY items.flag == YES", "NOT (name IN {'Soup', 'Main'}) AND items.@count >= %@"]
            let format = formats.randomElement(using: &rng)!
            let number = Int.random(in: 0..<4, using: &rng)
            let index = Int.random(in: 0..<memoryCategories.count, using: &rng)
            func build(_ categories: [ObjectID]) throws -> ObjectPredicate {
                guard format.contains("%@") else { return try ObjectPredicate(format: format) }
                if format.hasPrefix("SELF") { return try ObjectPredicate(format: format, categories[index]) }
                return try ObjectPredicate(format: format, number)
            }
            let sorts = [FetchSortDescriptor("name", ascending: round % 2 == 0), FetchSortDescriptor("serial")]
            let expected = try serials(memory, FetchRequest(entityName: "Category", predicate: try build(memoryCategories), sortDescriptors: sorts))
            let actual = try serials(documents, FetchRequest(entityName: "Category", predicate: try build(documentCategories), sortDescriptors: sorts))
            #expect(actual == expected, "category round \(round): \(format)")
        }
        // The comparison is meaningful only if the datastore really evaluated predicates.
        #expect(fullyPushed >= 25, "only \(fullyPushed) of 100 predicates were evaluated by the datastore")
        #expect(partlyPushed + fullyPushed >= 40)
    }

    @Test func toOneKeyPathBecomesASubQueryAndIndexesExist() throws {
        let stack = try DocumentStack(model: Self.model)
        let ctx = stack.context()
        try populate(ctx, seed: 42)
        let p = try ObjectPredicate(format: "category.name == %@", "Dessert")
        let request = StoreFetchRequest(entityNames: ["Item"], predicate: p, sortDescriptors: [FetchSortDescriptor("name")], fetchLimit: 5)
        let result = try stack.store.execute(request)
        #expect(result.residualPredicate == nil)
        #expect(result.isSorted && result.appliedLimitAndOffset)
        #expect(result.rows.count <= 5)
        for row in result.rows { #expect(row.toOne["category"] != nil) }
        let declared = try stack.store.documentStore.indexNames().query
        #expect(declared.contains("cdtis_CDTISEntityName"))
        #expect(declared.contains("cdtis_Item.name"))
        #expect(try stack.store.explain(StoreFetchRequest(entityNames: ["Item"], predicate: try ObjectPredicate(format: "name == 'x'"))).plan
                == "index cdtis_Item.name")
        // A sorted fetch is a read: it declares no index of its own (the model declares them).
        let sorted = try stack.store.execute(StoreFetchRequest(entityNames: ["Item"], predicate: try ObjectPredicate(format: "flag == YES"),
                                                               sortDescriptors: [FetchSortDescriptor("count")], fetchLimit: 3))
        #expect(sorted.isSorted && sorted.rows.count <= 3)
        #expect(try stack.store.documentStore.indexNames().query == declared)
        // A predicate the datastore cannot express comes back as residual.
        let contains = try stack.store.execute(StoreFetchRequest(entityNames: ["Item"], predicate: try ObjectPredicate(format: "name CONTAINS[c] 'a' AND count > 1")))
        #expect(contains.residualPredicate == (try ObjectPredicate(format: "name CONTAINS[c] 'a'")))
        #expect(try stack.store.countIfPushable(entityNames: ["Item"], predicate: try ObjectPredicate(format: "count > 1")) ==
                (try ctx.count(for: FetchRequest(entityName: "Item", predicate: try ObjectPredicate(format: "count > 1")))))
    }
}

/// Values fetches (`ObjectContext.fetchValues`): the same objects, in the same order and
/// page, with the same values, as fetching the objects, in either store.
extension DifferentialFetchTests {
    /// Each value a test compares, with relationships as the destination's serial (object
    /// IDs differ between the two stores).
    private func valueLines(_ ctx: ObjectContext, _ request: FetchRequest, serials: [ObjectID: Int64]) throws -> [String] {
        var lines: [String] = []
        try ctx.fetchValues(request) { values in
            let attributes = values.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            let category = values.toOne["category"].map { "category=\(serials[$0] ?? -1)" }
            lines.append((attributes + [category].compactMap { $0 }).joined(separator: " "))
        }
        return lines
    }

    /// The same line built from the fetched objects.
    private func objectLines(_ ctx: ObjectContext, _ request: FetchRequest, serials: [ObjectID: Int64]) throws -> [String] {
        try ctx.fetch(request).map { object in
            var parts: [String] = []
            for key in ["count", "flag", "name", "score", "serial", "when"] where request.propertiesToFetch?.contains(key) ?? true {
                let value = try object.value(forKey: key)
                if !value.isNull { parts.append("\(key)=\(value)") }
            }
            if let category = try object.objectIDs(forKey: "category").first { parts.append("category=\(serials[category] ?? -1)") }
            return parts.joined(separator: " ")
        }
    }

    @Test(arguments: [UInt64(4), 5])
    func valuesFetchesMatchObjectFetchesInBothStores(seed: UInt64) throws {
        let memory = ObjectContext(coordinator: try PersistentStoreCoordinator(model: Self.model, store: InMemoryStore()), name: "memory")
        let stack = try DocumentStack(model: Self.model)
        let documents = stack.context("documents")
        try populate(memory, seed: seed)
        try populate(documents, seed: seed)
        func categorySerials(_ ctx: ObjectContext) throws -> [ObjectID: Int64] {
            Dictionary(uniqueKeysWithValues: try ctx.fetch(FetchRequest(entityName: "Category")).map { ($0.objectID, try $0.int("serial") ?? -1) })
        }
        let memorySerials = try categorySerials(memory), documentSerials = try categorySerials(documents)
        let memoryCategories = memorySerials.sorted { $0.value < $1.value }.map(\.key)
        let documentCategories = documentSerials.sorted { $0.value < $1.value }.map(\.key)
        var rng = SeededGenerator(seed: seed &* 104_729)
        var answeredByTheStore = 0
        for round in 0..<60 {
            var localRng = rng
            let p1 = predicate(&rng, depth: 0, categoryIDs: memoryCategories)
            let p2 = predicate(&localRng, depth: 0, categoryIDs: documentCategories)
            let sorts = [FetchSortDescriptor(["name", "score", "count"].randomElement(using: &rng)!, ascending: Bool.random(using: &rng)),
                         FetchSortDescriptor("serial")]
            let limit: Int? = Bool.random(using: &rng) ? Int.random(in: 1...15, using: &rng) : nil
            let offset = Bool.random(using: &rng) ? Int.random(in: 1...5, using: &rng) : 0
            let properties: [String]? = Bool.random(using: &rng) ? nil : ["serial", "name"]
            memory.reset()
            documents.reset()
            let request1 = FetchRequest(entityName: "Item", predicate: p1, sortDescriptors: sorts, fetchLimit: limit, fetchOffset: offset, propertiesToFetch: properties)
            let request2 = FetchRequest(entityName: "Item", predicate: p2, sortDescriptors: sorts, fetchLimit: limit, fetchOffset: offset, propertiesToFetch: properties)
            let values = try valueLines(documents, request2, serials: documentSerials)
            #expect(documents.registeredObjectCount == 0, "round \(round): a values fetch registers no object")
            #expect(values == (try objectLines(documents, request2, serials: documentSerials)), "round \(round): \(p2) \(sorts)")
            #expect(values == (try valueLines(memory, request1, serials: memorySerials)), "round \(round): \(p1) \(sorts) in memory")
            let storeRequest = StoreFetchRequest(entityNames: ["Item"], predicate: p2, sortDescriptors: sorts, fetchLimit: limit,
                                                 fetchOffset: offset, propertiesToFetch: properties)
            if try stack.store.forEachValues(storeRequest, { _ in }) { answeredByTheStore += 1 }
        }
        // Both ways were taken: the store's own reading, and rows for what it cannot answer.
        #expect(answeredByTheStore >= 10 && answeredByTheStore < 60, "\(answeredByTheStore) of 60 answered by the store")
    }

    @Test func valuesLeaveBinaryOutKeepToManyOrderAndShowUnsavedChanges() throws {
        let stack = try DocumentStack(model: TestSupport.allTypesModel)
        let ctx = stack.context()
        let thing = try ctx.insert("Thing")
        try thing.setValue(.string("first"), forKey: "s")
        try thing.setValue(.data(Data([1, 2, 3])), forKey: "bin")
        var parts: [ObjectID] = []
        for n in 0..<3 {
            let part = try ctx.insert("Part")
            try part.setValue(.int(Int64(n)), forKey: "n")
            try thing.addObject(part, toKey: "parts")
        }
        try ctx.save()
        parts = try thing.objectIDs(forKey: "parts")
        ctx.reset()
        func values(_ properties: [String]?) throws -> [ObjectValues] {
            var found: [ObjectValues] = []
            try ctx.fetchValues(FetchRequest(entityName: "Thing", sortDescriptors: [FetchSortDescriptor("s")], propertiesToFetch: properties)) { found.append($0) }
            return found
        }
        let all = try values(nil)
        #expect(all.count == 1)
        #expect(all.first?.attributes == ["s": .string("first")], "binary values are not part of values")
        #expect(all.first?.toMany["parts"] == parts)
        let named = try values(["s"])
        #expect(named.first?.toMany.isEmpty == true, "to-many lists only when asked for")
        #expect(ctx.registeredObjectCount == 0)
        // The callback runs inside the store's read, and may still use the context.
        var binaries: [AttributeValue] = []
        try ctx.fetchValues(FetchRequest(entityName: "Thing", propertiesToFetch: ["s"])) { values in
            binaries.append(try ctx.existingObject(with: values.objectID).value(forKey: "bin"))
        }
        #expect(binaries == [.data(Data([1, 2, 3]))])
        ctx.reset()
        // An unsaved insert and an unsaved change show, as in an object fetch.
        let second = try ctx.insert("Thing")
        try second.setValue(.string("second"), forKey: "s")
        let changed = try ctx.existingObject(with: thing.objectID)
        try changed.setValue(.string("zeroth"), forKey: "s")
        #expect(try values(["s"]).map { $0.attributes["s"] } == [.string("second"), .string("zeroth")])
    }
}
