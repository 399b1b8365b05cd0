import Crypto
import DocumentIncrementalStore
public import Foundation

/// Deterministic document IDs and timestamps for imported sample objects.
///
/// Seeding must be idempotent across runs and machines: two machines that import the same
/// set at the same moment must write byte-identical documents, so replication sees one copy
/// and no conflict, and a sample the user deleted is recognised by its ID (its tombstone)
/// and never brought back. So every sample object's ID is a pure function of the set name,
/// the entity name and the object's natural key, in the shape the incremental store gives
/// new objects (`DocumentLayout.newDocumentID(entityName:)`); the UUID is name-based (RFC 9562 version 8,
/// built from SHA-256), and timestamps are constants instead of the clock.
///
/// Natural keys: a recipe is its name; an ingredient is its recipe's name, its display
/// order (position in the recipe's list) and its name; a recipe type is its name; an image
/// is its recipe's name (a recipe has at most one image).
public enum SampleIdentity {
    /// Entity names as the recipes model spells them.
    public enum Entity: String, Sendable, CaseIterable {
        case recipe = "Recipe"
        case ingredient = "Ingredient"
        case recipeType = "RecipeType"
        case image = "Image"
    }

    /// Domain separation for the hash, so these UUIDs never collide with another scheme's.
    /// Changing it changes every sample ID: never do so.
    static let namespace = "org.recipes.sample-identity.v1"

    /// The `Recipe` document ID for `recipe` in set `set`.
    public static func recipeID(set: String, recipe: String) -> String {
        documentID(entity: .recipe, set: set, naturalKey: [recipe])
    }

    /// The `Ingredient` document ID for the line at `displayOrder` named `name` of `recipe`.
    public static func ingredientID(set: String, recipe: String, displayOrder: Int, name: String) -> String {
        documentID(entity: .ingredient, set: set, naturalKey: [recipe, String(displayOrder), name])
    }

    /// The `RecipeType` document ID for the type called `type` in set `set`.
    public static func recipeTypeID(set: String, type: String) -> String {
        documentID(entity: .recipeType, set: set, naturalKey: [type])
    }

    /// The `Image` document ID for the picture of `recipe`.
    public static func imageID(set: String, recipe: String) -> String {
        documentID(entity: .image, set: set, naturalKey: [recipe])
    }

    /// The document ID for any entity and natural key: the adapter's ID prefix for the entity,
    /// then the name-based UUID.
    public static func documentID(entity: Entity, set: String, naturalKey: [String]) -> String {
        DocumentLayout.documentIDPrefix(entityName: entity.rawValue) + uuid(entity: entity, set: set, naturalKey: naturalKey).uuidString
    }

    /// The name-based UUID behind ``documentID(entity:set:naturalKey:)``: the first 16
    /// bytes of SHA-256 over a length-prefixed encoding of namespace, set, entity and key
    /// parts (so `["ab", "c"]` and `["a", "bc"]` differ), with the RFC 9562 version 8 and
    /// variant bits set. Parts are hashed in Unicode NFC, so names Swift considers equal
    /// ("Entrée" typed precomposed or with a combining accent) get the same ID.
    public static func uuid(entity: Entity, set: String, naturalKey: [String]) -> UUID {
        var input: [UInt8] = []
        input.reserveCapacity(128)
        for part in [namespace, set, entity.rawValue] + naturalKey {
            // ASCII is already in NFC; only other text pays for normalization.
            let text = part.utf8.allSatisfy({ $0 < 0x80 }) ? part : part.precomposedStringWithCanonicalMapping
            input.append(contentsOf: "\(text.utf8.count):".utf8)
            input.append(contentsOf: text.utf8)
        }
        var bytes = Array(SHA256.hash(data: input).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// The fixed creation date of every sample set: 2010-01-01T00:00:00Z. A constant, not
    /// the import time, so that the same sample is the same document everywhere.
    public static let sampleEpoch = Date(timeIntervalSince1970: 1_262_304_000)

    /// The creation date of the recipe at `index` in its set: one second before the previous
    /// one, so a "newest first" list shows samples in the order their set gives them, and
    /// ties never make that order depend on the store.
    public static func creationDate(recipeIndex index: Int) -> Date {
        sampleEpoch.addingTimeInterval(-Double(index))
    }
}
