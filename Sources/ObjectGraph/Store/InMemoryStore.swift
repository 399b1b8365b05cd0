public import Foundation
import Synchronization

/// An ``IncrementalStore`` that keeps s.rows in memory.
///
/// It is the reference implementation of the protocol: the tests of this module run on it,
/// and other stores are checked against it. ``PredicateSupport`` chooses how much of a fetch
/// it evaluates itself, so the coordinator's in-memory completion path can be exercised.
public final class InMemoryStore: IncrementalStore, Sendable {
    /// How much of a fetch predicate the store evaluates itself.
    public enum PredicateSupport: Sendable {
        /// Everything, plus sorting, limit and offset.
        case all
        /// Only top-level conjuncts comparing plain attributes; no sorting.
        case attributesOnly
        /// Nothing: every row of the entities comes back with the full predicate as residual.
        case none
    }

    private struct StoredRow {
        var attributes: [String: AttributeValue]
        var toOne: [String: ObjectID]
        var toMany: [String: [ObjectID]]
        var version: Int
        var sequence: Int
    }

    /// A losing version of a row: the row, its version token, the row it diverged from and
    /// that row's to-many destinations (when known).
    private typealias Alternative = (row: StoredRow, token: String, base: RowSnapshot?, baseToMany: [String: [ObjectID]])

    /// Everything the store holds, behind one lock.
    private struct State {
        var rows: [ObjectID: StoredRow] = [:]
        var nextSequence = 0
        /// Counts every write (saves, external changes, resolutions, rollbacks): the change token.
        var writeCount: UInt64 = 0
        var metadata: StoreMetadata?
        var model: ObjectModel?
        var observer: (@Sendable (StoreChangeSet) -> Void)?
        /// Losing versions per object.
        var alternatives: [ObjectID: [Alternative]] = [:]
        var nextAlternative = 0
        var fetchCount = 0
        var snapshotCount = 0
        var toManyCount = 0
    }

    private let state = Mutex(State())
    private let predicateSupport: PredicateSupport
    private let identifier: String

    /// Number of ``execute(_:)`` calls so far (lets tests see when the store was asked).
    public var fetchCount: Int { state.withLock { $0.fetchCount } }
    /// Number of ``snapshot(for:)`` calls so far (lets tests check the coordinator's row cache).
    public var snapshotCount: Int { state.withLock { $0.snapshotCount } }
    /// Number of ``toManyDestinations(of:relationship:)`` calls so far (lets tests check lazy loading).
    public var toManyCount: Int { state.withLock { $0.toManyCount } }

    /// Creates an empty store.
    public init(predicateSupport: PredicateSupport = .all, identifier: String = UUID().uuidString) {
        self.predicateSupport = predicateSupport
        self.identifier = identifier
    }

    private func locked<T: Sendable, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        try state.withLock { (state: inout State) throws(E) -> T in try body(&state) }
    }

    /// Records the model on first load; refuses another model version afterwards.
    public func loadMetadata(for model: ObjectModel) throws -> StoreMetadata {
        try locked { s in
            if let m = s.metadata {
                guard m.modelVersionHash == model.versionHash else {
                    throw IncrementalStoreError.modelMismatch(storeHash: m.modelVersionHash, modelHash: model.versionHash)
                }
                s.model = model
                return m
            }
            let m = StoreMetadata(storeIdentifier: identifier, modelVersionHash: model.versionHash,
                                  entityVersionHashes: model.entityVersionHashes)
            s.metadata = m
            s.model = model
            return m
        }
    }

    private static func snapshotLocked(_ s: State, _ id: ObjectID) -> RowSnapshot? {
        s.rows[id].map { RowSnapshot(objectID: id, attributes: $0.attributes, toOne: $0.toOne, version: RowVersion(String($0.version))) }
    }

    /// The stored row, or `nil`.
    public func snapshot(for objectID: ObjectID) throws -> RowSnapshot? {
        locked { s in
            s.snapshotCount += 1
            return Self.snapshotLocked(s, objectID)
        }
    }

    /// The stored destinations, in stored order.
    public func toManyDestinations(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try locked { s in
            s.toManyCount += 1
            guard let row = s.rows[objectID] else { throw IncrementalStoreError.objectNotFound(objectID) }
            return row.toMany[relationship] ?? []
        }
    }

    /// Reference strings of the form `mem-<Entity>-<UUID>`.
    public func obtainPermanentIDs(for temporaryIDs: [ObjectID]) throws -> [ObjectID] {
        temporaryIDs.map { ObjectID(entityName: $0.entityName, referenceString: "mem-\($0.entityName)-\(UUID().uuidString)") }
    }

    /// Sets the observer told about ``applyExternalChanges(upserts:deletions:)``.
    public func setChangeObserver(_ observer: (@Sendable (StoreChangeSet) -> Void)?) {
        locked { s in s.observer = observer }
    }

    /// Splits a predicate into the part this store evaluates and the residual.
    private func split(_ predicate: ObjectPredicate?, entityNames: [String], model: ObjectModel) -> (evaluated: ObjectPredicate?, residual: ObjectPredicate?) {
        guard let p = predicate else { return (nil, nil) }
        switch predicateSupport {
        case .all: return (p, nil)
        case .none: return (nil, p)
        case .attributesOnly:
            let conjuncts: [ObjectPredicate]
            if case .and(let items) = p { conjuncts = items } else { conjuncts = [p] }
            let entities = entityNames.compactMap { model.entity(named: $0) }
            func plain(_ c: ObjectPredicate) -> Bool {
                guard case .comparison(let cmp) = c, cmp.modifier == .direct else { return false }
                for e in [cmp.left, cmp.right] {
                    switch e {
                    case .keyPath(let k): if !entities.allSatisfy({ $0.attribute(named: k) != nil }) { return false }
                    case .constant: break
                    default: return false
                    }
                }
                return true
            }
            let mine = conjuncts.filter(plain), rest = conjuncts.filter { !plain($0) }
            let evaluated: ObjectPredicate? = mine.isEmpty ? nil : (mine.count == 1 ? mine[0] : .and(mine))
            let residual: ObjectPredicate? = rest.isEmpty ? nil : (rest.count == 1 ? rest[0] : .and(rest))
            return (evaluated, residual)
        }
    }

    /// Filters, sorts and pages as far as ``PredicateSupport`` allows.
    public func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        try locked { s in
            s.fetchCount += 1
            guard let model = s.model else { throw IncrementalStoreError.notLoaded }
            let wanted = Set(request.entityNames)
            var candidates = s.rows.filter { wanted.contains($0.key.entityName) }.sorted { $0.value.sequence < $1.value.sequence }
                .map { Self.snapshotLocked(s, $0.key)! }
            let (evaluated, residual) = split(request.predicate, entityNames: request.entityNames, model: model)
            let rowsCopy = s.rows
            let lookup: (ObjectID) -> RowSnapshot? = { id in
                rowsCopy[id].map { RowSnapshot(objectID: id, attributes: $0.attributes, toOne: $0.toOne, version: RowVersion(String($0.version))) }
            }
            let toMany: (ObjectID, String) -> [ObjectID] = { id, key in rowsCopy[id]?.toMany[key] ?? [] }
            func subject(_ r: RowSnapshot) -> RowEvaluationSubject {
                RowEvaluationSubject(snapshot: r, model: model, row: lookup, toMany: toMany)
            }
            if let evaluated {
                candidates = try candidates.filter { try PredicateEvaluator.evaluate(evaluated, on: subject($0)) }
            }
            guard predicateSupport == .all else {
                return StoreFetchResult(rows: candidates, residualPredicate: residual, isSorted: request.sortDescriptors.isEmpty, appliedLimitAndOffset: false)
            }
            candidates = try FetchSortDescriptor.sort(candidates, by: request.sortDescriptors, subject: subject)
            let start = min(request.fetchOffset, candidates.count)
            var page = Array(candidates[start...])
            if let limit = request.fetchLimit, limit > 0 { page = Array(page.prefix(limit)) }
            return StoreFetchResult(rows: page, residualPredicate: nil, isSorted: true, appliedLimitAndOffset: true)
        }
    }

    private func changedKeys(_ stored: StoredRow, _ baseline: RowSnapshot) -> Set<String> {
        baseline.keysChanged(inStoredAttributes: stored.attributes, toOne: stored.toOne)
    }

    /// Runs `body` and, when it throws, puts every row back as it was before: the saves made
    /// inside `body` are undone together. (Saves by other callers meanwhile are undone too.)
    public func performAtomically<T>(_ body: () throws -> T) throws -> T {
        let saved = locked { s in (s.rows, s.nextSequence, s.alternatives, s.nextAlternative) }
        do {
            return try body()
        } catch {
            locked { s in
                (s.rows, s.nextSequence, s.alternatives, s.nextAlternative) = saved
                s.writeCount += 1
            }
            throw error
        }
    }

    /// Checks every baseline version first, then writes everything (versions count up from 1).
    public func save(_ request: StoreSaveRequest) throws -> StoreSaveResult {
        try locked { s in
            var conflicts: [SaveConflict] = []
            for change in request.inserted where s.rows[change.objectID] != nil {
                throw IncrementalStoreError.duplicateObject(change.objectID)
            }
            for change in request.updated {
                let baseVersion = change.baseline?.version
                guard let stored = s.rows[change.objectID] else {
                    conflicts.append(SaveConflict(objectID: change.objectID, baselineVersion: baseVersion, storedSnapshot: nil, changedInStore: []))
                    continue
                }
                if let base = change.baseline, base.version.token != String(stored.version) {
                    conflicts.append(SaveConflict(objectID: change.objectID, baselineVersion: baseVersion,
                                                  storedSnapshot: Self.snapshotLocked(s, change.objectID), changedInStore: changedKeys(stored, base)))
                }
            }
            for deletion in request.deleted {
                guard let stored = s.rows[deletion.objectID], let base = deletion.baseline else { continue }
                if base.version.token != String(stored.version) {
                    conflicts.append(SaveConflict(objectID: deletion.objectID, baselineVersion: base.version,
                                                  storedSnapshot: Self.snapshotLocked(s, deletion.objectID), changedInStore: changedKeys(stored, base)))
                }
            }
            if !conflicts.isEmpty { throw IncrementalStoreError.conflicts(conflicts) }
            var versions: [ObjectID: RowVersion] = [:]
            for change in request.inserted {
                s.rows[change.objectID] = StoredRow(attributes: change.attributes, toOne: change.toOne, toMany: change.toMany, version: 1, sequence: s.nextSequence)
                s.nextSequence += 1
                versions[change.objectID] = RowVersion("1")
            }
            for change in request.updated {
                var row = s.rows[change.objectID]!
                row.attributes = change.attributes
                row.toOne = change.toOne
                row.toMany = change.toMany
                row.version += 1
                s.rows[change.objectID] = row
                versions[change.objectID] = RowVersion(String(row.version))
            }
            for deletion in request.deleted {
                s.rows[deletion.objectID] = nil
                s.alternatives[deletion.objectID] = nil
            }
            s.writeCount += 1
            return StoreSaveResult(versions: versions)
        }
    }

    /// Writes s.rows as another writer would (a replicator, another process): bumps versions,
    /// bypasses conflict checks, and tells the observer. Upserts carry full row state.
    public func applyExternalChanges(upserts: [ObjectChange], deletions: [ObjectID] = []) {
        let (changes, observer) = locked { s -> (StoreChangeSet, (@Sendable (StoreChangeSet) -> Void)?) in
            var set = StoreChangeSet()
            for change in upserts {
                if var row = s.rows[change.objectID] {
                    row.attributes = change.attributes
                    row.toOne = change.toOne
                    row.toMany = change.toMany
                    row.version += 1
                    s.rows[change.objectID] = row
                    set.updated.insert(change.objectID)
                } else {
                    s.rows[change.objectID] = StoredRow(attributes: change.attributes, toOne: change.toOne, toMany: change.toMany, version: 1, sequence: s.nextSequence)
                    s.nextSequence += 1
                    set.inserted.insert(change.objectID)
                }
            }
            for id in deletions where s.rows.removeValue(forKey: id) != nil { set.deleted.insert(id) }
            s.writeCount += 1
            return (set, s.observer)
        }
        observer?(changes)
    }

    /// Adds a losing version to an existing row, as replication of a concurrent edit would
    /// (the current row stays the winner). `change.baseline`, when given, is the row both
    /// versions descend from, and `baseToMany` its to-many destinations; resolutions compare
    /// against them (``ReplicaMerge``). Without `baseToMany` no destination counts as removed
    /// by this version.
    public func injectConflictingVersion(_ change: ObjectChange, baseToMany: [String: [ObjectID]] = [:]) throws {
        try locked { s in
            guard s.rows[change.objectID] != nil else { throw IncrementalStoreError.objectNotFound(change.objectID) }
            s.nextAlternative += 1
            let row = StoredRow(attributes: change.attributes, toOne: change.toOne, toMany: change.toMany, version: 0, sequence: 0)
            s.alternatives[change.objectID, default: []].append((row, "c\(s.nextAlternative)", change.baseline, baseToMany))
        }
    }

    /// Objects with injected losing versions; the current row is the winner.
    public func replicaConflicts() throws -> [ReplicaConflict] {
        locked { s in
            s.alternatives.keys.sorted().compactMap { id -> ReplicaConflict? in
                guard let losers = s.alternatives[id], !losers.isEmpty, let winner = Self.snapshotLocked(s, id) else { return nil }
                let others = losers.map { RowSnapshot(objectID: id, attributes: $0.row.attributes, toOne: $0.row.toOne, version: RowVersion($0.token)) }
                let differing = others.reduce(into: Set<String>()) { $0.formUnion(winner.keysChanged(inStoredAttributes: $1.attributes, toOne: $1.toOne)) }
                return ReplicaConflict(objectID: id, winner: winner, others: others, localVersion: nil, conflictingProperties: differing)
            }
        }
    }

    /// An attribute or to-one value as ``ReplicaMerge`` compares it.
    private enum MergeValue: Equatable, Sendable {
        case attribute(AttributeValue)
        case toOne(ObjectID)
    }

    /// A row's values as ``ReplicaMerge`` takes them (`null` attributes left out: missing is null).
    private static func mergeProperties(attributes: [String: AttributeValue], toOne: [String: ObjectID],
                                        toMany: [String: [ObjectID]]) -> ReplicaMerge.Properties<MergeValue> {
        var values: [String: MergeValue] = [:]
        for (name, value) in attributes where !value.isNull { values[name] = .attribute(value) }
        for (name, id) in toOne { values[name] = .toOne(id) }
        return ReplicaMerge.Properties(values: values, toMany: toMany)
    }

    /// The reference resolution: decides every conflict first (outside the lock, so a policy
    /// may read the store), then applies all of them at once, or none if any winner changed
    /// meanwhile. The values come from ``ReplicaMerge/resolve(_:winner:others:)``, the rule
    /// every store shares. Tells the change observer about the resolved s.rows.
    public func resolveReplicaConflicts(policy: ReplicaMergePolicy) throws -> [ObjectID] {
        let decisions = try replicaConflicts().map { ($0, try policy.resolution(for: $0)) }
        guard !decisions.isEmpty else { return [] }
        let observer = try locked { s -> (@Sendable (StoreChangeSet) -> Void)? in
            var newRows = s.rows
            var newAlternatives = s.alternatives
            for (conflict, resolution) in decisions {
                let id = conflict.objectID
                guard var row = newRows[id], let losers = newAlternatives[id] else { continue }
                guard conflict.winner.version.token == String(row.version) else {
                    throw IncrementalStoreError.conflicts([SaveConflict(objectID: id, baselineVersion: conflict.winner.version, storedSnapshot: Self.snapshotLocked(s, id),
                                                                        changedInStore: changedKeys(row, conflict.winner))])
                }
                let winner = ReplicaMerge.Version(version: conflict.winner.version,
                                                  properties: Self.mergeProperties(attributes: row.attributes, toOne: row.toOne, toMany: row.toMany), base: nil)
                let others = losers.map { loser in
                    ReplicaMerge.Version(version: RowVersion(loser.token),
                                         properties: Self.mergeProperties(attributes: loser.row.attributes, toOne: loser.row.toOne, toMany: loser.row.toMany),
                                         base: loser.base.map { Self.mergeProperties(attributes: $0.attributes, toOne: $0.toOne, toMany: loser.baseToMany) })
                }
                let merged = ReplicaMerge.resolve(resolution, winner: winner, others: others)
                var attributeNames = Set(row.attributes.keys)
                for loser in losers {
                    attributeNames.formUnion(loser.row.attributes.keys)
                    if let base = loser.base { attributeNames.formUnion(base.attributes.keys) }
                }
                var attributes: [String: AttributeValue] = [:]
                var toOne: [String: ObjectID] = [:]
                for name in attributeNames { attributes[name] = .null }
                for (name, value) in merged.values {
                    switch value {
                    case .attribute(let value): attributes[name] = value
                    case .toOne(let destination): toOne[name] = destination
                    }
                }
                if case .merged(let values) = resolution {
                    for (name, value) in values { attributes[name] = value }
                }
                row.attributes = attributes
                row.toOne = toOne
                row.toMany = merged.toMany
                row.version += 1
                newRows[id] = row
                newAlternatives[id] = nil
            }
            s.rows = newRows
            s.alternatives = newAlternatives
            s.writeCount += 1
            return s.observer
        }
        let resolved = decisions.map(\.0.objectID)
        observer?(StoreChangeSet(updated: Set(resolved)))
        return resolved
    }

    /// The number of writes so far (saves, external changes, resolutions, undone atomic
    /// blocks): it moves with every write, and reading it costs a lock.
    public func changeToken() throws -> StoreChangeToken? {
        locked { s in StoreChangeToken(String(s.writeCount)) }
    }

    /// Nothing to catch up with: ``applyExternalChanges(upserts:deletions:)`` reports each
    /// external change to the observer as it is applied.
    @discardableResult
    public func processExternalChanges() throws -> StoreChangeSet { StoreChangeSet() }

    /// The stored to-many destinations of every row (for comparing stores in tests).
    public func toManyTable() -> [ObjectID: [String: [ObjectID]]] {
        locked { s in s.rows.mapValues(\.toMany) }
    }

    /// IDs of all stored s.rows.
    public var allObjectIDs: Set<ObjectID> { locked { s in Set(s.rows.keys) } }
}
