/// The one rule that merges the concurrent versions of an object after replication: every
/// store (``InMemoryStore``, the document store) hands its versions to
/// ``resolve(_:winner:others:)`` and writes what it returns, so the same conflict settles to
/// the same values whichever store holds it.
///
/// The rule, for ``ReplicaResolution/winnerTrumps`` and ``ReplicaResolution/prefer(_:)``:
///
/// - **Attributes and to-one relationships** merge property by property, three-way, against
///   the version each other version shares with the winner (its base): a property only one
///   side changed since the base takes that side's value; a property several versions changed
///   takes the value of the first of them in precedence order. The precedence is the
///   winner, then the other versions in the store's order; `prefer` moves the preferred
///   version to the front. Without a known base every property counts as changed on both
///   sides, so the version first in precedence keeps all of its values.
/// - **To-many relationships** merge as sets, three-way: a destination stays unless some
///   version removed it since its base, and every destination some version added since its
///   base is added (an add wins over a concurrent remove). Without a known base nothing
///   counts as removed, so the result is the union. Destinations keep the winner's order,
///   followed by the added ones in precedence order.
///
/// Why sets and not "the winner's to-many": a recipe whose ingredients were edited on two
/// devices — one adds flour, the other adds sugar and drops salt — keeps flour and sugar and
/// loses salt, instead of silently losing one device's additions. Adding and removing
/// destinations commute, so the merged set does not depend on which version won or which
/// replica merges; only the order of added destinations follows the precedence, which every
/// replica derives from the same revision tree (CouchDB picks the same winner and leaf order
/// everywhere), so replicas resolving independently converge on the same values.
///
/// ``ReplicaResolution/keep(_:)`` takes one version whole, to-many relationships included;
/// ``ReplicaResolution/merged(_:)`` is the winner's attributes and to-one relationships (the
/// store writes the chosen values over them) with the to-many relationships merged as above.
/// Deletion is not merged here: stores treat a deleted version as no version, so an edit
/// concurrent with a deletion survives it.
public enum ReplicaMerge {
    /// One version's persistent values, in the form a store compares them.
    ///
    /// `Value` is whatever the store stores per attribute or to-one relationship (a decoded
    /// value, or a document's raw JSON with its side key and attachment digest); the rule only
    /// compares values, so stores merge what they hold without decoding it.
    public struct Properties<Value: Equatable & Sendable>: Equatable, Sendable {
        /// Attribute and to-one relationship values by name; a missing name is `null`.
        public var values: [String: Value]
        /// To-many relationship destinations by name (ordered ones in order); a missing name
        /// is no destinations.
        public var toMany: [String: [ObjectID]]

        /// Makes the values of one version.
        public init(values: [String: Value], toMany: [String: [ObjectID]]) {
            self.values = values
            self.toMany = toMany
        }
    }

    /// One concurrent version of an object: its version token, its values, and the values it
    /// shares with the winner (what both descend from), which tell what it changed.
    public struct Version<Value: Equatable & Sendable>: Equatable, Sendable {
        /// The version's token, as ``ReplicaResolution/prefer(_:)`` and
        /// ``ReplicaResolution/keep(_:)`` name it.
        public var version: RowVersion
        /// Its values.
        public var properties: Properties<Value>
        /// The newest values it shares with the winner; `nil` when unknown (no common
        /// ancestor is kept). Ignored for the winner itself.
        public var base: Properties<Value>?

        /// Makes a version.
        public init(version: RowVersion, properties: Properties<Value>, base: Properties<Value>?) {
            self.version = version
            self.properties = properties
            self.base = base
        }
    }

    /// The values `resolution` settles a conflict to (see the rule above): `winner` is the
    /// version every replica agrees won, `others` the other live versions in the store's
    /// deterministic order, each with its base. Pure: the same inputs give the same values on
    /// every replica.
    public static func resolve<Value>(_ resolution: ReplicaResolution, winner: Version<Value>,
                                      others: [Version<Value>]) -> Properties<Value> {
        switch resolution {
        case .winnerTrumps:
            return merge(winner: winner.properties, others: others, preferring: nil)
        case .prefer(let version):
            return merge(winner: winner.properties, others: others, preferring: version)
        case .keep(let version):
            return others.first { $0.version == version }?.properties ?? winner.properties
        case .merged:
            let merged = merge(winner: winner.properties, others: others, preferring: nil)
            return Properties(values: winner.properties.values, toMany: merged.toMany)
        }
    }

    /// The three-way merge of `others` into `winner`, `preferring` (when it names one of
    /// `others`) going before the winner in precedence.
    static func merge<Value>(winner: Properties<Value>, others: [Version<Value>],
                             preferring: RowVersion?) -> Properties<Value> {
        let preferred = others.firstIndex { $0.version == preferring }
        // Other versions in precedence order, each marked whether it goes before the winner.
        var ranked = others.enumerated().filter { $0.offset != preferred }.map { (version: $0.element, beforeWinner: false) }
        if let preferred { ranked.insert((others[preferred], true), at: 0) }

        var values = winner.values
        var names = Set(winner.values.keys)
        for other in others {
            names.formUnion(other.properties.values.keys)
            if let base = other.base { names.formUnion(base.values.keys) }
        }
        for name in names {
            let mine = winner.values[name]
            let claim = ranked.first { entry in
                let theirs = entry.version.properties.values[name]
                guard let base = entry.version.base else { return entry.beforeWinner && theirs != mine }
                let changedThere = theirs != base.values[name]
                let changedHere = mine != base.values[name]
                return changedThere && (entry.beforeWinner || !changedHere)
            }
            if let claim { values[name] = claim.version.properties.values[name] } else { values[name] = mine }
        }

        var toMany: [String: [ObjectID]] = [:]
        var relationships = Set(winner.toMany.keys)
        for other in others {
            relationships.formUnion(other.properties.toMany.keys)
            if let base = other.base { relationships.formUnion(base.toMany.keys) }
        }
        for name in relationships {
            var removed = Set<ObjectID>(), added: [ObjectID] = []
            for other in ranked.map(\.version) {
                let theirs = other.properties.toMany[name] ?? []
                let base = Set(other.base?.toMany[name] ?? [])
                let kept = Set(theirs)
                removed.formUnion(base.subtracting(kept))
                added += theirs.filter { !base.contains($0) }
            }
            let addedSet = Set(added)
            var result: [ObjectID] = []
            var seen = Set<ObjectID>()
            for id in winner.toMany[name] ?? [] where (!removed.contains(id) || addedSet.contains(id)) && seen.insert(id).inserted {
                result.append(id)
            }
            for id in added where seen.insert(id).inserted { result.append(id) }
            toMany[name] = result
        }
        return Properties(values: values, toMany: toMany)
    }
}
