import DocumentStore
import ObjectGraph
import DocumentFormat

/// The datastore indexes a model asks for, each limited (by a partial filter on
/// `CDTISEntityName`) to the documents of one entity, so writes of one entity never touch
/// another's indexes:
///
/// - `indexed="YES"` on an attribute: an index on its value (exact lookups, ranges, sorts).
/// - `<fetchIndex>` on an entity: a compound index over its elements, in order.
/// - userInfo `foldedIndex = YES` on a string attribute: an index on its value ignoring case
///   and accents, which answers `==[cd]` and `[cd]` sorts; in every `<fetchIndex>` that names
///   the attribute, its element is folded too.
/// - userInfo `textIndexed = YES` on a string attribute: a full-text (trigram) index, which
///   answers `CONTAINS`, `BEGINSWITH` and `ENDSWITH` (any options) from the index.
/// - Every stored to-one relationship, asked for or not: an index on its key (the
///   destination's document ID), as Core Data indexes its foreign keys itself, so
///   `recipe == %@`, `recipe IN %@`, key paths through the relationship (`type.name == %@`)
///   and the owners of an `ANY` through its inverse are index look-ups. An index the model
///   declares that already leads with the relationship (a `<fetchIndex>` on `type`, `name`)
///   serves instead, and no second one is kept.
///
/// The index on `CDTISEntityName` counts its rows per entity, and a `<fetchIndex>` led by a
/// to-one relationship counts its rows per destination, so entity counts and per-type recipe
/// counts read counters instead of walking indexes.
///
/// Names: `cdtis_<Entity>.<attribute>` (`.folded`, `.text`), `cdtis_<Entity>.<relationship>`
/// and `cdtis_<Entity>#<fetchIndex>`.
/// A store also keeps one index on `CDTISEntityName` for every document. Indexes this
/// adapter declared once and the model no longer asks for are dropped when the store opens.
struct ModelIndexes {
    /// A query index to declare.
    struct QuerySpec: Equatable {
        var name: String
        var fields: [IndexField]
        var partialFilter: JSONObject
        /// Whether the index counts its rows per value of its first field.
        var countsByLeadingKey = false
    }

    /// A text index to declare.
    struct TextSpec: Equatable {
        var name: String
        var field: String
        var partialFilter: JSONObject
    }

    /// The userInfo key that asks for a folded (case- and accent-insensitive) index.
    static let foldedKey = "foldedIndex"
    /// The userInfo key that asks for a full-text index.
    static let textKey = "textIndexed"
    /// The prefix of every index name this adapter declares.
    static let namePrefix = "cdtis_"

    let query: [QuerySpec]
    let text: [TextSpec]

    init(model: ObjectModel) {
        var query = [QuerySpec(name: Self.namePrefix + DocumentLayout.entityNameKey,
                               fields: [IndexField(DocumentLayout.entityNameKey)], partialFilter: [:], countsByLeadingKey: true)]
        var text: [TextSpec] = []
        for entity in model.entities where !entity.isAbstract {
            let filter: JSONObject = [DocumentLayout.entityNameKey: .string(entity.name)]
            let prefix = Self.namePrefix + entity.name + "."
            for attribute in entity.attributes where !attribute.isTransient {
                if attribute.isIndexed {
                    query.append(QuerySpec(name: prefix + attribute.name, fields: [IndexField(attribute.name)], partialFilter: filter))
                }
                if Self.isFolded(attribute) {
                    query.append(QuerySpec(name: prefix + attribute.name + ".folded",
                                           fields: [IndexField(attribute.name, folded: true)], partialFilter: filter))
                }
                if Self.isText(attribute) {
                    text.append(TextSpec(name: prefix + attribute.name + ".text", field: attribute.name, partialFilter: filter))
                }
            }
            for index in entity.fetchIndexes {
                let fields = index.elements.map { element in
                    IndexField(element.property, folded: entity.attribute(named: element.property).map(Self.isFolded) ?? false)
                }
                // Led by a to-one relationship, it counts the objects per destination.
                let byDestination = index.elements.first.map { entity.relationship(named: $0.property)?.isToOne ?? false } ?? false
                query.append(QuerySpec(name: Self.namePrefix + entity.name + "#" + index.name, fields: fields, partialFilter: filter,
                                       countsByLeadingKey: byDestination))
            }
            // Every to-one relationship's key, unless a declared index already leads with it.
            for relationship in entity.relationships where relationship.isToOne && !relationship.isTransient {
                let key = IndexField(relationship.name)
                if query.contains(where: { $0.partialFilter == filter && $0.fields.first == key }) { continue }
                query.append(QuerySpec(name: prefix + relationship.name, fields: [key], partialFilter: filter))
            }
        }
        // Two declarations with the same fields and filter (an indexed folded attribute and a
        // fetch index on it alone) are one index.
        var unique: [QuerySpec] = []
        for spec in query where !unique.contains(where: { $0.fields == spec.fields && $0.partialFilter == spec.partialFilter }) {
            unique.append(spec)
        }
        self.query = unique
        self.text = text
    }

    /// Whether the model asks for a folded index on the attribute (strings only, never
    /// encrypted ones).
    static func isFolded(_ attribute: AttributeDescription) -> Bool {
        attribute.type == .string && !attribute.isEncrypted && isYes(attribute.userInfo[foldedKey])
    }

    /// Whether the model asks for a text index on the attribute (strings only; full-text
    /// indexes never include an encrypted attribute).
    static func isText(_ attribute: AttributeDescription) -> Bool {
        attribute.type == .string && !attribute.isEncrypted && isYes(attribute.userInfo[textKey])
    }

    /// Whether an index keyed by the attribute's value (folded: by its folded value) leads
    /// with it in `entity`, so an equality on it is an index look-up.
    static func hasValueIndex(on attribute: AttributeDescription, folded: Bool, in entity: EntityDescription) -> Bool {
        // A <fetchIndex> element is folded exactly when the attribute asks for a folded index.
        if folded { return isFolded(attribute) }
        return attribute.isIndexed
            || (!isFolded(attribute) && entity.fetchIndexes.contains { $0.elements.first?.property == attribute.name })
    }

    /// Refuses a model that asks for any index on an encrypted attribute (`indexed`, a
    /// folded or text index, or a `<fetchIndex>` element): the store holds only ciphertext.
    /// - Throws: ``EncryptedAttributeError/notIndexable(entity:attribute:)``.
    static func refuseEncryptedIndexes(in model: ObjectModel) throws {
        for entity in model.entities {
            for attribute in entity.attributes where attribute.isEncrypted {
                if attribute.isIndexed || isYes(attribute.userInfo[foldedKey]) || isYes(attribute.userInfo[textKey])
                    || entity.fetchIndexes.contains(where: { $0.elements.contains { $0.property == attribute.name } }) {
                    throw EncryptedAttributeError.notIndexable(entity: entity.name, attribute: attribute.name)
                }
            }
        }
    }

    private static func isYes(_ value: String?) -> Bool {
        guard let value else { return false }
        return ["yes", "true", "1"].contains(value.lowercased())
    }

    /// Declares every index in `store` and drops the adapter's indexes the model no longer
    /// asks for. Writes nothing when the store already holds exactly these.
    func apply(to store: some DocumentStoreWriting) throws {
        // Every command's open: one read (one snapshot, on the datastore's own access) tells
        // that the store holds exactly these.
        if try store.withOneSnapshot({ try isApplied(in: $0) }) { return }
        for spec in query {
            try store.ensureIndex(spec.fields, name: spec.name, partialFilter: spec.partialFilter,
                                  countsByLeadingKey: spec.countsByLeadingKey)
        }
        for spec in text {
            try store.ensureTextIndex(field: spec.field, name: spec.name, partialFilter: spec.partialFilter)
        }
        let wanted = Set(query.map(\.name) + text.map(\.name))
        let declared = try store.indexNames()
        for name in declared.query + declared.text where name.hasPrefix(Self.namePrefix) && !wanted.contains(name) {
            try store.dropIndex(name: name)
        }
    }

    /// Whether the store declares exactly these indexes: each as asked, and none of the
    /// adapter's that the model no longer asks for.
    private func isApplied(in store: some DocumentStoreReading) throws -> Bool {
        for spec in query where try !store.isIndexDeclared(spec.fields, name: spec.name, partialFilter: spec.partialFilter,
                                                          countsByLeadingKey: spec.countsByLeadingKey) {
            return false
        }
        for spec in text where try !store.isTextIndexDeclared(field: spec.field, name: spec.name, partialFilter: spec.partialFilter) {
            return false
        }
        let wanted = Set(query.map(\.name) + text.map(\.name))
        let declared = try store.indexNames()
        return !(declared.query + declared.text).contains { $0.hasPrefix(Self.namePrefix) && !wanted.contains($0) }
    }
}
