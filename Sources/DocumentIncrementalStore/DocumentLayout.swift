import DocumentStore
import Foundation
import ObjectGraph
import DocumentFormat

/// The names and ID scheme of the document layout of the original Cloudant incremental store
/// (the layout the original iOS app's databases use; see "Documents, Fetches and Indexes"),
/// shared by the encoder, the decoder, the query translator and migration, so a database
/// written by the original iOS app reads here and ours reads there.
public enum DocumentLayout {
    /// Key holding the entity name of an object document.
    public static let entityNameKey = "CDTISEntityName"
    /// Key holding the per-object save counter (a decimal string starting at "1").
    public static let objectVersionKey = "CDTISObjectVersion"
    /// Prefix of the side key that carries type details of an attribute (`CDTISMeta_<name>`).
    public static let metaPrefix = "CDTISMeta_"
    /// ID of the replicated document describing the object model.
    public static let metadataDocumentID = "CDTISMetaData"
    /// ID (without `_local/`) of the non-replicated document with per-store state.
    public static let localStateDocumentID = "CDTISLocalState"
    /// Prefix of object document IDs.
    public static let idPrefix = "CDTIS-"

    /// The side key of attribute `name`.
    public static func metaKey(_ name: String) -> String { metaPrefix + name }

    /// A fresh document ID for a new object of `entityName`: `CDTIS-<Entity>-<UUID>`.
    public static func newDocumentID(entityName: String) -> String {
        documentIDPrefix(entityName: entityName) + RandomIdentifier.uuidString()
    }

    /// The prefix every document ID of objects of `entityName` starts with: `CDTIS-<Entity>-`.
    public static func documentIDPrefix(entityName: String) -> String {
        idPrefix + entityName + "-"
    }

    /// The entity named inside a `CDTIS-<Entity>-<UUID>` ID, if the ID has that shape.
    /// Entity names cannot contain `-`, so the entity runs up to the next dash.
    public static func entityName(inDocumentID id: String) -> String? {
        guard id.hasPrefix(idPrefix) else { return nil }
        let rest = id.dropFirst(idPrefix.count)
        guard let dash = rest.firstIndex(of: "-"), dash > rest.startIndex else { return nil }
        return String(rest[..<dash])
    }

    /// The object ID of a document referenced from a relationship whose destination is
    /// `destination`: the entity named in the ID when the model knows it (a sub-entity),
    /// else the relationship's destination.
    static func objectID(forReference docID: String, destination: String, model: ObjectModel) -> ObjectID {
        if model.entity(named: destination)?.subentityNames.isEmpty ?? true {
            return ObjectID(entityName: destination, referenceString: docID)
        }
        if let named = entityName(inDocumentID: docID), named != destination, let e = model.entity(named: named),
           let dest = model.entity(named: destination), model.entity(e, isKindOf: dest) {
            return ObjectID(entityName: named, referenceString: docID)
        }
        return ObjectID(entityName: destination, referenceString: docID)
    }
}
