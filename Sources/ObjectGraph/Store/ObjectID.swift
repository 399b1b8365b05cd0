import Foundation

/// Identifies one object across contexts, the coordinator and the store.
///
/// An object inserted in a context gets a temporary ID; on save the store hands out a
/// permanent one (``IncrementalStore/obtainPermanentIDs(for:)``), whose
/// ``referenceString`` the store chooses (a document store uses `CDTIS-<Entity>-<UUID>`).
/// IDs are `Sendable` values, so they are what crosses between contexts.
public struct ObjectID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The entity of the object.
    public let entityName: String
    /// The store's key for the object (for temporary IDs, `t<process token>-<counter>`).
    public let referenceString: String
    /// Whether the object has not been saved yet.
    public let isTemporary: Bool

    /// A permanent ID with a store-chosen reference string.
    public init(entityName: String, referenceString: String) {
        self.entityName = entityName
        self.referenceString = referenceString
        self.isTemporary = false
    }

    private init(temporaryFor entityName: String) {
        self.entityName = entityName
        self.referenceString = TemporaryReferences.next()
        self.isTemporary = true
    }

    /// A fresh temporary ID for a newly inserted object.
    public static func temporary(entityName: String) -> ObjectID { ObjectID(temporaryFor: entityName) }

    /// The stable string form, `x-objectgraph://<Entity>/<reference>` (or
    /// `x-objectgraph-temp://…` for temporary IDs); ``init(stringRepresentation:)`` reads it back.
    public var stringRepresentation: String {
        (isTemporary ? "x-objectgraph-temp://" : "x-objectgraph://") + entityName + "/" + referenceString
    }

    /// Reads an ID back from ``stringRepresentation``; `nil` if the text is not one.
    public init?(stringRepresentation text: String) {
        let temporary: Bool
        let rest: Substring
        if text.hasPrefix("x-objectgraph-temp://") {
            temporary = true; rest = text.dropFirst("x-objectgraph-temp://".count)
        } else if text.hasPrefix("x-objectgraph://") {
            temporary = false; rest = text.dropFirst("x-objectgraph://".count)
        } else { return nil }
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let entity = String(rest[..<slash])
        let ref = String(rest[rest.index(after: slash)...])
        guard !entity.isEmpty, !ref.isEmpty else { return nil }
        self.entityName = entity
        self.referenceString = ref
        self.isTemporary = temporary
    }

    /// The string form.
    public var description: String { stringRepresentation }

    /// Orders by entity then reference, for deterministic output.
    /// Hashes the reference alone: it tells objects apart on its own (entities rarely share
    /// a reference), and every context, cache and fetch hashes IDs, so hashing the entity
    /// name too would cost each look-up without spreading the keys any better. Equal IDs
    /// have equal references, so this agrees with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(referenceString)
    }

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.entityName, lhs.referenceString) < (rhs.entityName, rhs.referenceString)
    }
}
