import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import DocumentFormat

@Suite("Binary attributes load on access")
struct DeferredBinaryTests {
    @Test func attachmentsAreReadOnlyWhenAccessed() throws {
        let stack = try DocumentStack()
        let writer = stack.context("writer")
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 7, count: 100_000))
        for i in 0..<3 {
            let r = try writer.insert("Recipe")
            try r.setValue(.string("Recipe \(i)"), forKey: "name")
            if i != 1 { try r.setValue(.data(jpeg), forKey: "thumbnailImage") }
        }
        try writer.save()
        // Fetched rows carry no bytes, only the names of the deferred attributes.
        let result = try stack.store.execute(StoreFetchRequest(entityNames: ["Recipe"], sortDescriptors: [FetchSortDescriptor("name")]))
        #expect(result.rows.map(\.deferredAttributes) == [["thumbnailImage"], [], ["thumbnailImage"]])
        #expect(result.rows.allSatisfy { $0.attributes["thumbnailImage"] == nil || $0.attributes["thumbnailImage"] == .null })
        let reader = stack.context("reader")
        let recipes = try reader.fetch(FetchRequest(entityName: "Recipe", sortDescriptors: [FetchSortDescriptor("name")]))
        #expect(try recipes.map { try $0.data("thumbnailImage")?.count } == [jpeg.count, nil, jpeg.count])
        // A predicate on the binary attribute is evaluated with the loaded values.
        let withImage = try reader.fetch(FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "thumbnailImage != nil")))
        #expect(withImage.count == 2)
        let fresh = stack.context("fresh")
        #expect(try fresh.count(for: FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "thumbnailImage == nil"))) == 1)
        // Changing another attribute keeps the attachment and its side key untouched.
        let first = try #require(try fresh.fetch(FetchRequest(entityName: "Recipe", predicate: try ObjectPredicate(format: "name == 'Recipe 0'"))).first)
        let before = try #require(try stack.store.documentStore.get(id: first.objectID.referenceString))
        try first.setValue(.string("Renamed"), forKey: "name")
        try fresh.save()
        let after = try #require(try stack.store.documentStore.get(id: first.objectID.referenceString))
        #expect(after.attachments["thumbnailImage"]?.digest == before.attachments["thumbnailImage"]?.digest)
        #expect(after.body["CDTISMeta_thumbnailImage"] == ["mime-type": "image/jpeg"])
        let again = stack.context("again")
        #expect(try again.existingObject(with: first.objectID).data("thumbnailImage") == jpeg)
    }
}
