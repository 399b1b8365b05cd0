import DocumentStore
import Foundation
import DocumentFormat

/// Makes recipe-shaped documents (the layout of the object-graph store: entity name, object
/// version, attributes, relationships as document IDs) deterministically from a number, so a
/// benchmark can regenerate any batch without keeping the documents in memory.
struct RecipeDocumentFactory {
    /// How many distinct recipe types the documents spread over.
    let typeCount = 20

    private static let words = ["apple", "basil", "butter", "carrot", "cinnamon", "cream", "garlic", "ginger",
                                "honey", "lemon", "lentil", "mint", "mushroom", "onion", "pepper", "potato",
                                "rice", "saffron", "tomato", "vanilla", "walnut", "yogurt"]

    /// The ID of recipe number `n`.
    func id(_ n: Int) -> String { "CDTIS-Recipe-" + hex(n, salt: 0x5EED) }

    /// The type ID that recipe number `n` points to.
    func typeID(_ n: Int) -> String { "CDTIS-RecipeType-\(n % typeCount)" }

    /// The body of recipe number `n` (about 700 bytes of JSON).
    func body(_ n: Int) -> JSONObject {
        let w = Self.words
        func word(_ k: Int) -> String { w[(n &* 31 &+ k &* 17) % w.count] }
        let name = "\(word(1).capitalized) and \(word(2)) \(word(3)) #\(n)"
        return [
            "CDTISEntityName": "Recipe",
            "CDTISObjectVersion": "1",
            "name": .string(name),
            "overview": .string("A \(word(4)) dish with \(word(5)) and \(word(6)), ready in \(10 + n % 50) minutes."),
            "instructions": .string((0..<6).map { "Step \($0 + 1): combine the \(word($0 + 7)) with the \(word($0 + 8)) and stir gently." }
                .joined(separator: " ")),
            "prepTime": .string("\(10 + n % 50) min"),
            "created_at": .double(1_700_000_000 + Double(n) * 61.5),
            "type": .string(typeID(n)),
            "image": .string("CDTIS-Image-" + hex(n, salt: 0x1A6E)),
            "ingredients": .array((0..<5).map { .string("CDTIS-Ingredient-" + hex(n &* 8 &+ $0, salt: 0x16D)) }),
            "CDTISMeta_thumbnailImage": ["mime-type": "image/png"],
        ]
    }

    private func hex(_ n: Int, salt: UInt64) -> String {
        var x = UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15 ^ salt
        x ^= x >> 31
        let high = String(x, radix: 16)
        let low = String(UInt64(truncatingIfNeeded: n), radix: 16)
        return String(repeating: "0", count: max(0, 16 - high.count)) + high + "-" + low
    }

    /// The thumbnail of document `index` when every `attachmentEvery`th one has one of
    /// `attachmentBytes` bytes (the same bytes each time); `nil` for the others.
    func attachment(_ index: Int, every attachmentEvery: Int?, bytes attachmentBytes: Int) -> Data? {
        guard let attachmentEvery, index % attachmentEvery == 0 else { return nil }
        return SyncBenchmark.bytes(attachmentBytes, seed: index)
    }

    /// Writes `count` recipe documents into `store`, 1,000 per transaction; every
    /// `attachmentEvery`-th (from the first) carries an `attachmentBytes` JPEG-typed
    /// thumbnail of deterministic bytes. `idPrefix` goes before each ID.
    func write(_ count: Int, into store: DocumentStore, attachmentEvery: Int?, attachmentBytes: Int, idPrefix: String = "") throws {
        var operations: [DocumentStore.WriteOperation] = []
        for index in 0..<count {
            let attachments: [AttachmentChange] = attachment(index, every: attachmentEvery, bytes: attachmentBytes)
                .map { [.put(name: "thumbnailImage", contentType: "image/jpeg", data: $0)] } ?? []
            operations.append(.create(id: idPrefix + id(index), body: body(index), attachments: attachments))
            if operations.count == 1000 {
                _ = try store.write(operations)
                operations = []
            }
        }
        if !operations.isEmpty { _ = try store.write(operations) }
    }
}
