import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import TestSupport
import DocumentFormat

@Suite("Attribute round trips and document layout")
struct RoundTripTests {
    /// Writes one Thing with `values`, reopens the file with a new store and reads it back.
    private func roundTrip(_ values: [String: AttributeValue]) throws -> (ManagedObject, DocumentRevision, ObjectContext) {
        let dir = try TemporaryDirectory()
        let id: ObjectID
        do {
            let stack = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
            let ctx = stack.context()
            let thing = try ctx.insert("Thing")
            for (k, v) in values { try thing.setValue(v, forKey: k) }
            try ctx.save()
            id = thing.objectID
        }
        let stack = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
        let ctx = stack.context()
        let object = try ctx.existingObject(with: id)
        let doc = try #require(try stack.store.documentStore.get(id: id.referenceString))
        return (object, doc, ctx)
    }

    @Test func extremesAndSpecialValuesSurviveAReopen() throws {
        let bytes = Data((0..<(5 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        let date = Date(timeIntervalSinceReferenceDate: 123_456_789.123_456_7)
        let values: [String: AttributeValue] = [
            "s": .string("Crème brûlée — 焦糖布丁 🍮"), "i16": .int(Int64(Int16.min)), "i32": .int(Int64(Int32.max)),
            "i64": .int(Int64.min), "d": .double(0.1 + 0.2), "f": .float(Float.leastNonzeroMagnitude),
            "dec": .decimal(Decimal(string: "12345678901234567890.123456789")!), "b": .bool(true), "date": .date(date),
            "bin": .data(bytes), "xf": .transformable(Data([1, 2, 3])), "u": .uuid(UUID()), "url": .uri(URL(string: "https://example.com/a?b=c")!),
        ]
        let (object, doc, context) = try roundTrip(values)
        defer { withExtendedLifetime(context) {} }
        for (k, v) in values { #expect(try object.value(forKey: k) == v, "attribute \(k)") }
        #expect(doc.body["i64"] == .int(Int64.min))
        #expect(doc.body["b"] == .int(1))
        #expect(doc.body["dec"] == .string("12345678901234567890.123456789"))
        // JSON text parsing may be a few ulps off; the exact bits are in the side key.
        #expect(abs((doc.body["date"]?.doubleValue ?? 0) - date.timeIntervalSince1970) < 1e-5)
        #expect(doc.body["CDTISMeta_d"] == ["ieee754_double": .int(Int64(bitPattern: (0.1 + 0.2).bitPattern))])
        #expect(doc.body["CDTISMeta_bin"] == ["mime-type": "application/octet-stream"])
        #expect(doc.attachments["bin"]?.length == 5 * 1024 * 1024)
        #expect(doc.attachments["xf"]?.length == 3)
        #expect(doc.body["CDTISEntityName"] == "Thing")
        #expect(doc.body["CDTISObjectVersion"] == "1")
        #expect(doc.id.hasPrefix("CDTIS-Thing-"))
    }

    @Test func nonFiniteAndLimitValues() throws {
        let (object, doc, context) = try roundTrip([
            "d": .double(.nan), "f": .float(-.infinity), "i64": .int(Int64.max), "s": .string(""), "i16": .int(Int64(Int16.max)),
        ])
        defer { withExtendedLifetime(context) {} }
        guard case .double(let d) = try object.value(forKey: "d") else { Issue.record("d is not a double"); return }
        #expect(d.isNaN)
        #expect(try object.value(forKey: "f") == .float(-.infinity))
        #expect(try object.value(forKey: "i64") == .int(Int64.max))
        #expect(try object.value(forKey: "s") == .string(""))
        #expect(doc.body["CDTISMeta_d"] == ["nonFinite": "nan"])
        #expect(doc.body["CDTISMeta_f"] == ["nonFinite": "-infinity"])
        let (inf, _, infContext) = try roundTrip(["d": .double(.infinity)])
        #expect(try inf.value(forKey: "d") == .double(.infinity))
        withExtendedLifetime(infContext) {}
    }

    @Test func nullsAndImagesAndVersionCounter() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
        let dir = try TemporaryDirectory()
        let stack = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
        let ctx = stack.context()
        let thing = try ctx.insert("Thing")
        try thing.setValue(.data(png), forKey: "bin")
        try thing.setValue(.transformable(jpeg), forKey: "xf")
        try ctx.save()
        var doc = try #require(try stack.store.documentStore.get(id: thing.objectID.referenceString))
        #expect(doc.body["CDTISMeta_bin"] == ["mime-type": "image/png"])
        #expect(doc.body["CDTISMeta_xf"] == ["mime-type": "image/jpeg"])
        #expect(doc.attachments["bin"]?.contentType == "image/png")
        #expect(doc.body["s"] == .null)
        try thing.setValue(.null, forKey: "bin")
        try thing.setValue(.string("x"), forKey: "s")
        try ctx.save()
        doc = try #require(try stack.store.documentStore.get(id: thing.objectID.referenceString))
        #expect(doc.body["CDTISObjectVersion"] == "2")
        #expect(doc.attachments["bin"] == nil)
        #expect(doc.attachments["xf"] != nil, "unchanged attachments are kept")
        let fresh = try DocumentStack(model: TestSupport.allTypesModel, directory: dir).context()
        let again = try fresh.existingObject(with: thing.objectID)
        #expect(try again.value(forKey: "bin") == .null)
        #expect(try again.value(forKey: "xf") == .transformable(jpeg))
    }

    @Test func relationshipsAreDocumentIDsAndOrderIsKept() throws {
        let dir = try TemporaryDirectory()
        let stack = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
        let ctx = stack.context()
        let thing = try ctx.insert("Thing")
        var parts: [ManagedObject] = []
        for n in [5, 3, 9, 1] {
            let p = try ctx.insert("Part")
            try p.setValue(.int(Int64(n)), forKey: "n")
            try thing.addObject(p, toKey: "parts")
            parts.append(p)
        }
        try ctx.save()
        let doc = try #require(try stack.store.documentStore.get(id: thing.objectID.referenceString))
        #expect(doc.body["parts"] == .array(parts.map { .string($0.objectID.referenceString) }))
        let partDoc = try #require(try stack.store.documentStore.get(id: parts[0].objectID.referenceString))
        #expect(partDoc.body["thing"] == .string(thing.objectID.referenceString))
        let fresh = try DocumentStack(model: TestSupport.allTypesModel, directory: dir).context()
        let again = try fresh.existingObject(with: thing.objectID)
        #expect(try again.objects(forKey: "parts").map { try $0.int("n") } == [5, 3, 9, 1])
        // Delete cascades and writes tombstones.
        try fresh.delete(again)
        try fresh.save()
        let store = try DocumentStore(path: dir.path("store.sqlite"))
        #expect(try store.get(id: thing.objectID.referenceString) == nil)
        #expect(try store.leafRevisions(id: parts[2].objectID.referenceString).first?.deleted == true)
    }

    @Test func theToManyCacheStaysBoundedAndMissesReadTheStore() throws {
        let dir = try TemporaryDirectory()
        let stack = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
        stack.store.toManyCacheLimit = 64
        let ctx = stack.context()
        let count = 64 * 3 + 10
        var things: [ManagedObject] = []
        for n in 0..<count {
            let thing = try ctx.insert("Thing")
            let part = try ctx.insert("Part")
            try part.setValue(.int(Int64(n)), forKey: "n")
            try thing.addObject(part, toKey: "parts")
            things.append(thing)
        }
        try ctx.save()
        #expect(stack.store.toManyCache.count <= 64)
        let fresh = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
        fresh.store.toManyCacheLimit = 64
        let reader = fresh.context()
        let all = try reader.fetch(FetchRequest(entityName: "Thing"))
        #expect(all.count == count)
        #expect(fresh.store.toManyCache.count <= 64)
        // Lists the cache let go of are read again from the store, unchanged.
        for (n, thing) in things.enumerated() where n % 50 == 0 || n == count - 1 {
            let parts = try fresh.store.toManyDestinations(of: thing.objectID, relationship: "parts")
            #expect(try parts.map { try reader.existingObject(with: $0).int("n") } == [Int64(n)])
        }
    }

    /// A long import must not keep an entry per document it wrote; writes the map let go
    /// of come back from the changes feed as external, as after reopening the store.
    @Test func theOwnRevisionsMapStaysBoundedAndForgottenWritesComeBackAsExternal() throws {
        let dir = try TemporaryDirectory()
        let stack = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
        stack.store.ownRevisionsLimit = 16
        let ctx = stack.context()
        var parts: [ManagedObject] = []
        for n in 0..<40 {
            let part = try ctx.insert("Part")
            try part.setValue(.int(Int64(n)), forKey: "n")
            parts.append(part)
        }
        try ctx.save()
        let written = Set(parts.map(\.objectID))
        #expect(stack.store.ownRevisions.count <= 16)
        let changes = try stack.store.processExternalChanges()
        #expect(changes.updated.isSubset(of: written))
        #expect(changes.updated.count >= 40 - 16 && changes.updated.count < 40)
        #expect(try stack.store.processExternalChanges().updated.isEmpty)
    }

    @Test func aPartialFetchDefersTheRestAndASaveLosesNothing() throws {
        let dir = try TemporaryDirectory()
        let id: ObjectID
        do {
            let stack = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
            let ctx = stack.context()
            let thing = try ctx.insert("Thing")
            try thing.setValue(.string("hello"), forKey: "s")
            try thing.setValue(.int(7), forKey: "i32")
            try thing.setValue(.double(.nan), forKey: "d")
            for n in [1, 2] {
                let part = try ctx.insert("Part")
                try part.setValue(.int(Int64(n)), forKey: "n")
                try thing.addObject(part, toKey: "parts")
            }
            try ctx.save()
            id = thing.objectID
        }
        let stack = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
        let ctx = stack.context()
        let fetched = try ctx.fetch(FetchRequest(entityName: "Thing", propertiesToFetch: ["s"]))
        #expect(fetched.map(\.objectID) == [id])
        let row = try #require(try stack.coordinator.snapshot(for: id))
        #expect(row.attributes["s"] == .string("hello"))
        #expect(row.deferredAttributes.isSuperset(of: ["i32", "d"]))
        #expect(stack.store.toManyCache[id.referenceString] == nil, "a partial row's lists are not cached")
        // What was left out loads on first access, exactly.
        let thing = fetched[0]
        #expect(try thing.value(forKey: "i32") == .int(7))
        #expect(try thing.objects(forKey: "parts").count == 2)
        // A save after a partial fetch writes every value back.
        try thing.setValue(.string("changed"), forKey: "s")
        try ctx.save()
        let again = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
        let rereading = again.context()
        let reread = try rereading.existingObject(with: id)
        #expect(try reread.value(forKey: "s") == .string("changed"))
        #expect(try reread.value(forKey: "i32") == .int(7))
        if case .double(let d) = try reread.value(forKey: "d") { #expect(d.isNaN) } else { Issue.record("d lost") }
        #expect(try reread.objects(forKey: "parts").count == 2)
    }

    @Test func metadataDocumentIsAPureFunctionOfTheModel() throws {
        let a = try DocumentStack()
        let b = try DocumentStack()
        // The metadata document is written with a store's first save.
        for stack in [a, b] {
            let ctx = stack.context()
            try ctx.insert("RecipeType").setValue(.string("Soup"), forKey: "name")
            try ctx.save()
        }
        let docA = try #require(try a.store.documentStore.get(id: "CDTISMetaData"))
        let docB = try #require(try b.store.documentStore.get(id: "CDTISMetaData"))
        #expect(docA.rev == docB.rev)
        let recipe = try #require(docA.body["objectModel"]?.objectValue?["Recipe"]?.objectValue)
        #expect(recipe["versionHash"]?.stringValue == TestSupport.recipesModel.entity(named: "Recipe")?.versionHash)
        let props = try #require(recipe["properties"]?.objectValue)
        #expect(props["name"]?.objectValue?["typeName"] == "utf8")
        #expect(props["thumbnailImage"]?.objectValue?["typeName"] == "binary")
        #expect(props["prepTime"]?.objectValue?["versionHash"]?.stringValue == TestSupport.recipesModel.entity(named: "Recipe")?.attribute(named: "prepTime")?.versionHash)
        #expect(props["type"]?.objectValue?["typeName"] == "relation-to-one")
        #expect(props["type"]?.objectValue?["destination"] == "RecipeType")
        #expect(props["ingredients"]?.objectValue?["typeName"] == "relation-to-many")
        // Reopening writes nothing new; the store UUID lives in a local document.
        let reopened = try DocumentIncrementalStore(path: a.directory.path("store.sqlite"))
        _ = try PersistentStoreCoordinator(model: TestSupport.recipesModel, store: reopened)
        #expect(try reopened.documentStore.get(id: "CDTISMetaData")?.rev == docA.rev)
        #expect(try reopened.documentStore.getLocal(id: "CDTISLocalState")?["storeUUID"]?.stringValue == a.coordinator.metadata.storeIdentifier)
    }

    @Test func manyRandomDoublesFloatsAndDatesAreBitExact() throws {
        var rng = SeededGenerator(seed: 99)
        let dir = try TemporaryDirectory()
        var written: [(ObjectID, Double, Float, Date)] = []
        var pending: [(ManagedObject, Double, Float, Date)] = []
        do {
            let stack = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
            let ctx = stack.context()
            for _ in 0..<200 {
                let d = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF | (rng.next() & 0x8000_0000_0000_0000))
                let f = Float.random(in: -1e6...1e6, using: &rng)
                let date = Date(timeIntervalSince1970: Double.random(in: -1e9...4e9, using: &rng))
                let t = try ctx.insert("Thing")
                try t.setValue(.double(d), forKey: "d")
                try t.setValue(.float(f), forKey: "f")
                try t.setValue(.date(date), forKey: "date")
                pending.append((t, d, f, date))
            }
            try ctx.save()
            written = pending.map { ($0.0.objectID, $0.1, $0.2, $0.3) }
        }
        let stack = try DocumentStack(model: TestSupport.allTypesModel, directory: dir)
        let ctx = stack.context()
        for (id, d, f, date) in written {
            let t = try ctx.existingObject(with: id)
            #expect(try t.value(forKey: "d") == .double(d))
            #expect(try t.value(forKey: "f") == .float(f))
            #expect(try t.value(forKey: "date") == .date(date))
        }
    }
}
