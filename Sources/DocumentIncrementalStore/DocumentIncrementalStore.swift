public import DocumentStore
public import Foundation
public import ObjectGraph
public import DocumentFormat

/// An `IncrementalStore` that keeps every managed object as one JSON document in a
/// `DocumentStore`, in the layout of the original Cloudant incremental store (see the article
/// "Documents, Fetches and Indexes"):
/// IDs `CDTIS-<Entity>-<UUID>`, `CDTISEntityName`, a `CDTISObjectVersion` counter, typed
/// attribute encodings with `CDTISMeta_<name>` side keys, relationships as document IDs,
/// binary values as attachments, and a `CDTISMetaData` document describing the model.
///
/// Saves are one datastore transaction; row versions are document revision IDs, so
/// optimistic locking compares against the stored revision. Fetches are pushed down to
/// datastore queries served by indexes, and what a query cannot express is left to the
/// coordinator. Documents that arrive by replication become visible through
/// ``processExternalChanges()``; conflicting revisions are listed by ``replicaConflicts()``
/// and settled by ``resolveReplicaConflicts(policy:)`` (the object graph's one conflict API).
///
/// Open one with ``openCoordinator(url:model:)`` or create it on a file URL and hand it to a
/// `PersistentStoreCoordinator`.
// Unchecked: the loaded model, codec, caches and own-revision records are touched only inside
// `locked`, which holds `lock` for a whole store operation, datastore calls included, as the
// `IncrementalStore` contract serializes them. The lock is recursive so that operations may
// call one another; `Mutex` is not re-entrant.
public final class DocumentIncrementalStore: IncrementalStore, @unchecked Sendable {
    /// The datastore holding the documents.
    public let documentStore: DocumentStore

    let lock = NSRecursiveLock()
    var model: ObjectModel?
    var codec: ObjectDocumentCodec?
    /// The password's encryption of attributes marked encrypted, once ``unlock(password:)``
    /// accepted a password.
    var encryption: AttributeEncryption?
    private var observer: (@Sendable (StoreChangeSet) -> Void)?
    /// To-many destinations of recently read or written documents, with the revision read.
    /// Emptied when it reaches ``toManyCacheLimit`` entries, so reading a whole large book
    /// a page at a time keeps its memory flat (see ``remember(toMany:of:rev:)``).
    var toManyCache: [String: (rev: String, toMany: [String: [ObjectID]])] = [:]
    /// How many documents' to-many lists ``toManyCache`` holds at most (about 20 MB of
    /// recipe-sized lists; tests lower it).
    var toManyCacheLimit = 32_768
    /// The latest revision this instance wrote per document: tells this instance's own writes
    /// from others' in the changes feed, so contexts are not refreshed for their own saves.
    /// Started afresh when it reaches ``ownRevisionsLimit`` entries (see
    /// ``rememberOwn(_:of:)``), so one long import does not keep an entry per document.
    /// Which leaf of a replica conflict was written here is not taken from it but from the
    /// datastore, which records it with the revisions (it holds across relaunches).
    var ownRevisions: [String: RevisionID] = [:]
    /// How many documents ``ownRevisions`` remembers at most (about 10 MB; tests lower it).
    var ownRevisionsLimit = 65_536
    /// Changes-feed position up to which external changes were processed.
    private var processedSequence: Int64 = 0
    /// Whether the store holds a `CDTISMetaData` document; until it does, each save adds ours.
    var hasMetadataDocument = false
    /// While ``explainQueryPlans(_:)`` runs: the sub-queries a fetch's translation ran.
    private var subqueryLog: [Query]?

    /// Opens (or creates) the datastore file at `url`.
    public convenience init(url: URL, options: DocumentStore.Options = .init()) throws {
        do { self.init(documentStore: try DocumentStore(url: url, options: options)) }
        catch let e as DocumentStoreError { throw DocumentIncrementalStoreError.datastore(e) }
    }

    /// Opens (or creates) the datastore file at the file path `path`.
    package convenience init(path: String, options: DocumentStore.Options = .init()) throws {
        try self.init(url: URL(fileURLWithPath: path), options: options)
    }

    /// Wraps an open datastore (for example one a replicator also writes to).
    public init(documentStore: DocumentStore) {
        self.documentStore = documentStore
    }

    /// Opens the store file at `url` for `model` and returns a coordinator on it.
    /// - Throws: ``DocumentIncrementalStoreError`` when the file cannot be opened or the model
    ///   cannot be migrated from the stored one.
    public static func openCoordinator(url: URL, model: ObjectModel) throws -> PersistentStoreCoordinator {
        try PersistentStoreCoordinator(model: model, store: DocumentIncrementalStore(url: url))
    }

    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs a datastore call, turning its errors into the protocol's store failures.
    func ds<T>(_ body: () throws -> T) throws -> T {
        do { return try body() }
        catch let e as DocumentStoreError { throw IncrementalStoreError.storeFailure(e) }
    }

    /// ``locked(_:)`` with every datastore read of `body` on one snapshot
    /// (`DocumentStore.withSnapshot(_:)`): a fetch's sub-queries (`type.name CONTAINS %@`)
    /// and its own query see the same state, in one read transaction.
    func lockedSnapshot<T>(_ body: () throws -> T) throws -> T {
        try locked { try ds { try documentStore.withSnapshot(body) } }
    }

    private func loadedCodec() throws -> ObjectDocumentCodec {
        guard let codec else { throw IncrementalStoreError.notLoaded }
        return codec
    }

    // MARK: Metadata

    /// Opens the store for `model`: adopts the `CDTISMetaData` document when it describes
    /// this model (ours, or another app's in the original layout: it is left alone, so
    /// replicas never get a conflicting revision of it), migrates a store written with an
    /// older model of ours, keeps per-store state in a local document, and declares the
    /// indexes the model asks for. A store without the document gets ours with its first
    /// save, so a pull that brings another app's document first leaves nothing to conflict.
    /// - Throws: ``DocumentIncrementalStoreError/foreignModel(_:)`` or
    ///   ``DocumentIncrementalStoreError/incompatibleModel(entity:property:reason:)``.
    public func loadMetadata(for model: ObjectModel) throws -> StoreMetadata {
        try locked {
            do {
                hasMetadataDocument = false
                if let existing = try documentStore.get(id: DocumentLayout.metadataDocumentID) {
                    if let migration = try ModelMetadataDocument.migration(opening: existing.body, with: model) {
                        try migration.apply(to: documentStore)
                        try documentStore.update(id: DocumentLayout.metadataDocumentID, parent: existing.rev,
                                                 body: ModelMetadataDocument.body(for: model))
                    }
                    hasMetadataDocument = true
                }
                var local = try documentStore.getLocal(id: DocumentLayout.localStateDocumentID) ?? [:]
                let stored = local
                if local["storeUUID"]?.stringValue == nil { local["storeUUID"] = .string(UUID().uuidString) }
                local["modelVersionHash"] = .string(model.versionHash)
                // A store opened again with the same model is only read: no write, no fsync.
                if local != stored { try documentStore.putLocal(id: DocumentLayout.localStateDocumentID, body: local) }
                self.model = model
                try ModelIndexes.refuseEncryptedIndexes(in: model)
                self.codec = ObjectDocumentCodec(model: model, encryption: encryption)
                try ModelIndexes(model: model).apply(to: documentStore)
                processedSequence = try documentStore.lastSequence
                return StoreMetadata(storeIdentifier: local["storeUUID"]!.stringValue!, modelVersionHash: model.versionHash,
                                     entityVersionHashes: model.entityVersionHashes,
                                     extra: ["datastoreID": documentStore.storeID])
            } catch let e as DocumentStoreError {
                throw DocumentIncrementalStoreError.datastore(e)
            }
        }
    }

    /// Declares the indexes the loaded model asks for (`ModelIndexes`) in another datastore,
    /// so a benchmark can compare the adapter against direct writes with the same indexes.
    public func declareModelIndexes(in other: DocumentStore) throws {
        guard let model = locked({ self.model }) else {
            throw IncrementalStoreError.notLoaded
        }
        try ModelIndexes(model: model).apply(to: other)
    }

    // MARK: Reads

    /// Decodes a winner into a row; with `fetched` (a partial fetch), the attributes outside
    /// it are deferred and its to-many lists are not cached (they may be incomplete).
    func decode(_ revision: DocumentRevision, fetched: Set<String>? = nil) throws -> ObjectDocumentCodec.Decoded? {
        let codec = try loadedCodec()
        let decoded = try codec.decode(revision, deferAttachments: true, fetched: fetched) { name in
            try self.documentStore.attachment(id: revision.id, rev: revision.rev, name: name)?.data
        }
        if let decoded, fetched == nil, !decoded.toMany.isEmpty {
            remember(toMany: decoded.toMany, of: revision.id, rev: revision.rev.description)
        }
        return decoded
    }

    /// Remembers `rev` as this instance's latest write of document `id`. When the map is
    /// full it starts afresh: the instance then no longer knows its older writes as its own,
    /// exactly as after reopening the store (every process starts with none). Such a write
    /// seen in the changes feed is reported as an external change (contexts refresh the
    /// object, which is already current).
    func rememberOwn(_ rev: RevisionID, of id: String) {
        if ownRevisions.count >= ownRevisionsLimit, ownRevisions[id] == nil { ownRevisions.removeAll(keepingCapacity: true) }
        ownRevisions[id] = rev
    }

    /// Caches the to-many lists of one document revision, starting the cache afresh when it
    /// is full (a miss only costs reading the document again).
    func remember(toMany: [String: [ObjectID]], of id: String, rev: String) {
        if toManyCache.count >= toManyCacheLimit, toManyCache[id] == nil { toManyCache.removeAll(keepingCapacity: true) }
        toManyCache[id] = (rev, toMany)
    }

    /// The current row of an object from its winning revision (binary values deferred).
    public func snapshot(for objectID: ObjectID) throws -> RowSnapshot? {
        try locked {
            guard let revision = try ds({ try documentStore.get(id: objectID.referenceString) }),
                  let decoded = try decode(revision), decoded.row.objectID.entityName == objectID.entityName else { return nil }
            return decoded.row
        }
    }

    /// Reads a value the row left deferred: a binary or transformable value from the revision
    /// the row was read at (or the current one, if that revision's attachments were compacted
    /// away); any other attribute a partial fetch left out, from that revision's body.
    public func loadDeferredAttribute(_ name: String, of objectID: ObjectID, version: RowVersion) throws -> AttributeValue {
        try locked {
            guard let model, let attribute = model.entity(named: objectID.entityName)?.attribute(named: name) else { return .null }
            let id = objectID.referenceString
            if attribute.isEncrypted {
                guard let rev = RevisionID(version.token), let revision = try ds({ try documentStore.get(id: id, rev: rev) })
                        ?? ds({ try documentStore.get(id: id) }) else {
                    throw IncrementalStoreError.objectNotFound(objectID)
                }
                guard let stored = revision.body[name]?.stringValue else { return .null }
                return try AttributeEncryption.decrypt(stored, attribute: attribute, documentID: id, with: encryption)
            }
            if !AttributeCodec.isAttachment(attribute.type) {
                // A value a partial fetch left out: read from the body of the same revision.
                // Without it the value is unknown, never taken as null (a save writes it back).
                guard let rev = RevisionID(version.token), let revision = try ds({ try documentStore.get(id: id, rev: rev) }) else {
                    throw IncrementalStoreError.objectNotFound(objectID)
                }
                return try AttributeCodec.decode(attribute, from: revision.body) { _ in nil } ?? attribute.defaultValue
            }
            let found = try ds { try documentStore.attachment(id: id, rev: RevisionID(version.token), name: name) }
                ?? ds { try documentStore.attachment(id: id, name: name) }
            guard let data = found?.data else { return .null }
            return attribute.type == .transformable ? .transformable(data) : .data(data)
        }
    }

    /// The current rows of several objects, read together (one datastore read per thousand);
    /// missing ones are left out.
    public func snapshots(for objectIDs: [ObjectID]) throws -> [RowSnapshot] {
        try locked {
            var rows: [RowSnapshot] = []
            var start = 0
            while start < objectIDs.count {
                let slice = objectIDs[start..<min(objectIDs.count, start + 1000)]
                let wanted = Dictionary(slice.map { ($0.referenceString, $0.entityName) }, uniquingKeysWith: { first, _ in first })
                for revision in try ds({ try documentStore.documents(withIDs: Array(wanted.keys)) }) {
                    guard let decoded = try decode(revision), decoded.row.objectID.entityName == wanted[revision.id] else { continue }
                    rows.append(decoded.row)
                }
                start += 1000
            }
            return rows
        }
    }

    /// The document IDs stored in a to-many relationship's array, in order.
    public func toManyDestinations(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try locked {
            if let cached = toManyCache[objectID.referenceString] { return cached.toMany[relationship] ?? [] }
            guard let revision = try ds({ try documentStore.get(id: objectID.referenceString) }),
                  let decoded = try decode(revision) else { throw IncrementalStoreError.objectNotFound(objectID) }
            return decoded.toMany[relationship] ?? []
        }
    }

    /// New document IDs `CDTIS-<Entity>-<UUID>` for inserted objects.
    public func obtainPermanentIDs(for temporaryIDs: [ObjectID]) throws -> [ObjectID] {
        temporaryIDs.map { ObjectID(entityName: $0.entityName, referenceString: DocumentLayout.newDocumentID(entityName: $0.entityName)) }
    }

    /// Runs `body` inside one datastore transaction (`DocumentStore.inTransaction(_:)`):
    /// every save made meanwhile commits with it or not at all. After a failure the cached
    /// to-many lists are dropped, since some came from saves that were undone.
    public func performAtomically<T>(_ body: () throws -> T) throws -> T {
        do {
            return try documentStore.inTransaction(body)
        } catch let e as DocumentStoreError {
            locked { toManyCache = [:] }
            throw IncrementalStoreError.storeFailure(e)
        } catch {
            locked { toManyCache = [:] }
            throw error
        }
    }

    /// Sets the callback ``processExternalChanges()`` reports to.
    public func setChangeObserver(_ observer: (@Sendable (StoreChangeSet) -> Void)?) {
        locked { self.observer = observer }
    }

    // MARK: Fetch

    /// The selector matching documents of the given entities.
    static func entitySelector(_ names: [String]) -> JSONValue {
        names.count == 1 ? .object([DocumentLayout.entityNameKey: .string(names[0])])
            : .object([DocumentLayout.entityNameKey: ["$in": .array(names.map { .string($0) })]])
    }

    /// Sort keys the datastore orders exactly as the object graph does: plain keys, and
    /// string keys ignoring both case and accents (folded).
    private func pushableSort(_ descriptors: [FetchSortDescriptor], entities: [EntityDescription]) -> [SortField]? {
        var fields: [SortField] = []
        for d in descriptors {
            guard !d.keyPath.contains("."),
                  let type = entities.first?.attribute(named: d.keyPath)?.type,
                  entities.allSatisfy({ $0.attribute(named: d.keyPath)?.type == type }) else { return nil }
            let folded = d.caseInsensitive && d.diacriticInsensitive
            if (d.caseInsensitive || d.diacriticInsensitive) && !(folded && type == .string) { return nil }
            switch type {
            case .string, .integer16, .integer32, .integer64, .boolean, .date, .uuid, .uri: break
            default: return nil
            }
            fields.append(SortField(field: d.keyPath, ascending: d.ascending, folded: folded))
        }
        return fields
    }

    /// Runs a sub-query for a key path through a relationship: the documents of
    /// `entityNames` matching `selector`, as their IDs, or (with `field`) as the document IDs
    /// their relationship `field` holds (a to-one's ID, a to-many's array).
    /// IDs alone come from the index when it decides the selector (no body is read);
    /// otherwise only the members the selector needs, and the collected relationship, are
    /// parsed of each body (a recipe type's body holds the IDs of all its recipes).
    private func subquery(_ entityNames: [String], _ selector: JSONValue, collecting field: String?) throws -> [String] {
        var query = Query(selector: ["$and": [Self.entitySelector(entityNames), selector]])
        query.fields = field.map { [$0] } ?? []
        subqueryLog?.append(query)
        if field == nil, let ids = try ds({ try documentStore.findIDs(query) }) { return ids }
        let revisions = try ds { try documentStore.find(query) }
        guard let field else { return revisions.map(\.id) }
        var ids: [String] = []
        for revision in revisions {
            switch revision.body[field] {
            case .string(let id)?: ids.append(id)
            case .array(let items)?: ids += items.compactMap(\.stringValue)
            default: continue
            }
        }
        return ids
    }

    /// Runs a fetch as a datastore query: the translatable part of the predicate, the sort
    /// and the page when everything was translated; the rest is returned as residual.
    public func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        try lockedSnapshot {
            guard let pushed = try pushedDown(request) else {
                return StoreFetchResult(rows: [], residualPredicate: nil, isSorted: true, appliedLimitAndOffset: true)
            }
            // A partial fetch answered wholly by the store reads only the members it needs;
            // the rows list the rest as deferred.
            var query = pushed.query
            let fetched = pushed.residual == nil ? request.propertiesToFetch.map(Set.init) : nil
            if let fetched, let model { query.fields = Self.documentFields(fetched, entities: request.entityNames, model: model) }
            let revisions = try ds { try documentStore.find(query) }
            var rows: [RowSnapshot] = []
            rows.reserveCapacity(revisions.count)
            for revision in revisions {
                if let decoded = try decode(revision, fetched: fetched) { rows.append(decoded.row) }
            }
            return StoreFetchResult(rows: rows, residualPredicate: pushed.residual, isSorted: pushed.isSorted,
                                    appliedLimitAndOffset: pushed.paged)
        }
    }

    /// Streams the values of a fetch the datastore answers wholly (predicate, sort and
    /// page), reading only the body members of the requested properties; `false` when part
    /// of it would be left to the coordinator. `body` runs inside one read of the datastore.
    public func forEachValues(_ request: StoreFetchRequest, _ body: (ObjectValues) throws -> Void) throws -> Bool {
        try lockedSnapshot {
            guard let pushed = try pushedDown(request) else { return true }
            guard pushed.residual == nil, pushed.isSorted, pushed.paged, let model else { return false }
            let codec = try loadedCodec()
            var query = pushed.query
            let wanted = request.propertiesToFetch.map(Set.init)
            let properties = wanted ?? Set(request.entityNames.compactMap { model.entity(named: $0) }.flatMap { entity in
                entity.attributes.filter { !AttributeCodec.isAttachment($0.type) }.map(\.name) + entity.relationships.map(\.name)
            })
            query.fields = Self.documentFields(properties, entities: request.entityNames, model: model)
            var readings: [String: ObjectDocumentCodec.ValuesReading] = [:]
            try ds {
                try documentStore.forEachMatch(of: query) { revision in
                    guard let name = revision.body[DocumentLayout.entityNameKey]?.stringValue else { return }
                    if readings[name] == nil {
                        guard let entity = model.entity(named: name) else { return }
                        readings[name] = ObjectDocumentCodec.ValuesReading(entity: entity, wanted: wanted, model: model)
                    }
                    if let values = try codec.values(of: revision, entityName: name, reading: readings[name]!) { try body(values) }
                }
            }
            return true
        }
    }

    /// The body members a partial fetch of `properties` reads: the layout keys, the
    /// properties with their side keys, and every to-one relationship (rows always carry those).
    static func documentFields(_ properties: Set<String>, entities: [String], model: ObjectModel) -> [String] {
        var fields: Set<String> = [DocumentLayout.entityNameKey, DocumentLayout.objectVersionKey]
        for name in properties {
            fields.insert(name)
            fields.insert(DocumentLayout.metaKey(name))
        }
        for entity in entities.compactMap({ model.entity(named: $0) }) {
            for relationship in entity.relationships where !relationship.isToMany { fields.insert(relationship.name) }
        }
        return fields.sorted()
    }

    /// The IDs a fetch selects, read from the datastore's index alone (no document is read),
    /// when the whole predicate translates, the sort is the store's and one entity is asked
    /// for; `nil` otherwise.
    public func fetchObjectIDs(_ request: StoreFetchRequest) throws -> [ObjectID]? {
        try lockedSnapshot {
            guard request.entityNames.count == 1, let entityName = request.entityNames.first else { return nil }
            guard let pushed = try pushedDown(request) else { return [] }
            guard pushed.residual == nil, pushed.isSorted, pushed.paged,
                  let ids = try ds({ try documentStore.findIDs(pushed.query) }) else { return nil }
            return ids.map { ObjectID(entityName: entityName, referenceString: $0) }
        }
    }

    /// How the datastore reads a fetch (`DocumentStore.explain(_:)`: an index name, a
    /// candidate set or a scan) and what is left to evaluate in memory, for tests and
    /// diagnostics. Sub-queries of key paths through relationships do run.
    public func explain(_ request: StoreFetchRequest) throws -> (plan: String, residual: ObjectPredicate?) {
        try locked {
            guard let pushed = try pushedDown(request) else { return ("nothing", nil) }
            return (try ds { try documentStore.explain(pushed.query) }, pushed.residual)
        }
    }

    /// How every query a fetch runs is read: each sub-query its key paths through
    /// relationships run (`type.name == %@`, `ANY ingredients.name == %@`), in order, then
    /// the fetch's own query; for each, its selector, `DocumentStore.explain(_:)` (an index
    /// name, `candidates` or `scan`) and SQLite's `EXPLAIN QUERY PLAN` steps
    /// (`DocumentStore.explainQueryPlan(_:)`). For tests and diagnostics: a test holds a
    /// fetch to its indexes this way, and catches a fallback to reading every document of an
    /// entity, without timing it.
    public func explainQueryPlans(_ request: StoreFetchRequest) throws -> [(selector: JSONValue, reading: String, steps: [String])] {
        try locked {
            subqueryLog = []
            defer { subqueryLog = nil }
            guard let pushed = try pushedDown(request) else { return [] }
            let queries = (subqueryLog ?? []) + [pushed.query]
            return try queries.map { query in
                (query.selector, try ds { try documentStore.explain(query) }, try ds { try documentStore.explainQueryPlan(query) })
            }
        }
    }

    /// A fetch as a datastore query: the translated predicate, the sort and the page when
    /// the store can apply them; `nil` when no requested entity exists.
    private func pushedDown(_ request: StoreFetchRequest) throws
        -> (query: Query, residual: ObjectPredicate?, isSorted: Bool, paged: Bool)? {
        guard let model else { throw IncrementalStoreError.notLoaded }
        let entities = request.entityNames.compactMap { model.entity(named: $0) }
        guard !entities.isEmpty else { return nil }
        try Self.refuseEncrypted(request.predicate, sorts: request.sortDescriptors.map(\.keyPath), entities: entities, model: model)
        let translator = PredicateTranslator(model: model, entities: entities, subquery: { try self.subquery($0, $1, collecting: $2) })
        let translation = try translator.translate(request.predicate)
        let sort = translation.residual == nil ? pushableSort(request.sortDescriptors, entities: entities) : nil
        var query = Query(selector: ["$and": .array([Self.entitySelector(request.entityNames)] + translation.selectors)])
        let paged = translation.residual == nil && (request.sortDescriptors.isEmpty || sort != nil)
        if let sort, !sort.isEmpty { query.sort = sort }
        if paged {
            if let limit = request.fetchLimit, limit > 0 { query.limit = limit }
            query.skip = request.fetchOffset
        }
        return (query, translation.residual, request.sortDescriptors.isEmpty || sort != nil, paged)
    }

    /// Counts in the datastore when the whole predicate translates; `nil` otherwise.
    public func count(_ request: StoreFetchRequest) throws -> Int? {
        try countIfPushable(entityNames: request.entityNames, predicate: request.predicate)
    }

    /// Number of objects of `entityNames` matching `predicate`, counted in the datastore when
    /// the whole predicate translates (bodies are not turned into rows); otherwise `nil`.
    public func countIfPushable(entityNames: [String], predicate: ObjectPredicate?) throws -> Int? {
        try lockedSnapshot {
            guard let model else { return nil }
            let entities = entityNames.compactMap { model.entity(named: $0) }
            try Self.refuseEncrypted(predicate, sorts: [], entities: entities, model: model)
            let translator = PredicateTranslator(model: model, entities: entities, subquery: { try self.subquery($0, $1, collecting: $2) })
            let translation = try translator.translate(predicate)
            guard translation.residual == nil else { return nil }
            let selector: JSONValue = ["$and": .array([Self.entitySelector(entityNames)] + translation.selectors)]
            return try ds { try documentStore.count(selector: selector) }
        }
    }

    // MARK: Save

    /// Properties whose values differ between a stored row and a baseline.
    static func changedKeys(_ stored: RowSnapshot, _ baseline: RowSnapshot) -> Set<String> {
        baseline.keysChanged(inStoredAttributes: stored.attributes, toOne: stored.toOne)
    }

    /// Writes a context save as one datastore transaction: a document per inserted or updated
    /// object, a tombstone per deleted one. Refuses the whole save with
    /// `IncrementalStoreError.conflicts(_:)` when a document's current revision is not the
    /// one the change was based on.
    public func save(_ request: StoreSaveRequest) throws -> StoreSaveResult {
        try locked {
            let codec = try loadedCodec()
            guard let model else { throw IncrementalStoreError.notLoaded }
            var conflicts: [SaveConflict] = []
            var current: [String: DocumentRevision] = [:]
            func check(_ id: ObjectID, baseline: RowSnapshot?, isDeletion: Bool) throws {
                let revision = try ds { try documentStore.get(id: id.referenceString) }
                if let revision { current[id.referenceString] = revision }
                guard let base = baseline else {
                    if revision == nil && !isDeletion {
                        conflicts.append(SaveConflict(objectID: id, baselineVersion: nil, storedSnapshot: nil, changedInStore: []))
                    }
                    return
                }
                guard let revision else {
                    if !isDeletion { conflicts.append(SaveConflict(objectID: id, baselineVersion: base.version, storedSnapshot: nil, changedInStore: [])) }
                    return
                }
                if revision.rev.description != base.version.token {
                    let stored = try decode(revision)?.row
                    conflicts.append(SaveConflict(objectID: id, baselineVersion: base.version, storedSnapshot: stored,
                                                  changedInStore: stored.map { Self.changedKeys($0, base) } ?? []))
                }
            }
            for change in request.updated { try check(change.objectID, baseline: change.baseline, isDeletion: false) }
            for deletion in request.deleted { try check(deletion.objectID, baseline: deletion.baseline, isDeletion: true) }
            if !conflicts.isEmpty { throw IncrementalStoreError.conflicts(conflicts) }

            var operations: [DocumentStore.WriteOperation] = []
            var written: [ObjectID] = []
            operations.reserveCapacity(request.inserted.count + request.updated.count + request.deleted.count)
            for change in request.inserted {
                guard let entity = model.entity(named: change.objectID.entityName) else { throw IncrementalStoreError.unknownEntity(change.objectID.entityName) }
                let (body, attachments) = try codec.encode(change, entity: entity, objectVersion: 1, previousAttachments: [], onlyChangedAttachments: false)
                operations.append(.create(id: change.objectID.referenceString, body: body, attachments: attachments))
                written.append(change.objectID)
            }
            for change in request.updated {
                guard let entity = model.entity(named: change.objectID.entityName),
                      let revision = current[change.objectID.referenceString] else { throw IncrementalStoreError.objectNotFound(change.objectID) }
                let previous = revision.body[DocumentLayout.objectVersionKey]?.stringValue.flatMap { Int($0) } ?? 0
                let (body, attachments) = try codec.encode(change, entity: entity, objectVersion: previous + 1,
                                                       previousAttachments: Set(revision.attachments.keys), onlyChangedAttachments: true,
                                                       previousBody: revision.body)
                operations.append(.update(id: change.objectID.referenceString, parent: revision.rev, body: body, attachments: attachments))
                written.append(change.objectID)
            }
            for deletion in request.deleted {
                guard let revision = current[deletion.objectID.referenceString] else { continue }
                operations.append(.delete(id: deletion.objectID.referenceString, parent: revision.rev))
            }
            if !operations.isEmpty && !hasMetadataDocument {
                hasMetadataDocument = try ds { try documentStore.get(id: DocumentLayout.metadataDocumentID) } != nil
                if !hasMetadataDocument {
                    operations.append(.create(id: DocumentLayout.metadataDocumentID, body: ModelMetadataDocument.body(for: model), attachments: []))
                }
            }
            let revisions: [DocumentRevision]
            do {
                revisions = try documentStore.write(operations)
                hasMetadataDocument = true
            } catch DocumentStoreError.conflict(let id) where id == DocumentLayout.metadataDocumentID {
                // Written meanwhile by another opener of the file: save without ours.
                hasMetadataDocument = true
                return try save(request)
            } catch DocumentStoreError.conflict(let id) {
                if let inserted = request.inserted.first(where: { $0.objectID.referenceString == id }) {
                    throw IncrementalStoreError.duplicateObject(inserted.objectID)
                }
                // Changed between the check and the write: report it as a conflict.
                let objectID = (request.updated.map(\.objectID) + request.deleted.map(\.objectID)).first { $0.referenceString == id }
                    ?? ObjectID(entityName: DocumentLayout.entityName(inDocumentID: id) ?? "", referenceString: id)
                let stored = try ds { try documentStore.get(id: id) }.flatMap { try decode($0)?.row }
                throw IncrementalStoreError.conflicts([SaveConflict(objectID: objectID, baselineVersion: nil, storedSnapshot: stored, changedInStore: [])])
            } catch let e as DocumentStoreError {
                throw IncrementalStoreError.storeFailure(e)
            }
            var versions: [ObjectID: RowVersion] = [:]
            for (index, revision) in revisions.enumerated() {
                rememberOwn(revision.rev, of: revision.id)
                if index < written.count {
                    let change = index < request.inserted.count ? request.inserted[index] : request.updated[index - request.inserted.count]
                    versions[written[index]] = RowVersion(revision.rev.description)
                    if change.toMany.isEmpty { toManyCache[revision.id] = nil }
                    else { remember(toMany: change.toMany, of: revision.id, rev: revision.rev.description) }
                } else {
                    toManyCache[revision.id] = nil
                }
            }
            return StoreSaveResult(versions: versions)
        }
    }

    // MARK: Changes from elsewhere

    /// The datastore's last changes-feed sequence: every committed document write, by any
    /// process on the file or a replicator, moves it. One look-up at the end of the
    /// sequence index (a few microseconds), so live fetches can poll it.
    public func changeToken() throws -> StoreChangeToken? {
        StoreChangeToken(String(try ds { try documentStore.lastSequence }))
    }

    /// Looks at the datastore's changes feed for documents written by anything other than
    /// this store instance (a replication pull, another process), drops what it cached about
    /// them, and reports them to the coordinator so contexts refresh. Returns the change set.
    @discardableResult
    public func processExternalChanges() throws -> StoreChangeSet {
        let (changes, notify) = try locked { () -> (StoreChangeSet, (@Sendable (StoreChangeSet) -> Void)?) in
            var set = StoreChangeSet()
            processedSequence = try ds {
                try documentStore.forEachChange(since: processedSequence, batch: 500) { change in
                    if change.id == DocumentLayout.metadataDocumentID {
                        try adoptReplicatedMetadata()
                        return
                    }
                    if let own = ownRevisions[change.id], change.revisions.first == own, change.revisions.count == 1 { return }
                    toManyCache[change.id] = nil
                    // The entity named in a `CDTIS-<Entity>-<UUID>` ID is the document's own (as
                    // for references, `DocumentLayout.objectID(forReference:…)`), so only other
                    // IDs cost a read of the document: a pull of 180,000 documents would
                    // otherwise read every one of them again here.
                    let objectID: ObjectID?
                    if let name = DocumentLayout.entityName(inDocumentID: change.id), model?.entity(named: name) != nil {
                        objectID = ObjectID(entityName: name, referenceString: change.id)
                    } else if let revision = try ds({ try documentStore.get(id: change.id) }), let entity = codec?.entity(of: revision.body) {
                        objectID = ObjectID(entityName: entity.name, referenceString: change.id)
                    } else {
                        objectID = nil
                    }
                    guard let objectID else { return }
                    if change.deleted { set.deleted.insert(objectID) } else { set.updated.insert(objectID) }
                }
            }
            return (set, self.observer)
        }
        if !(changes.inserted.isEmpty && changes.updated.isEmpty && changes.deleted.isEmpty) { notify?(changes) }
        return changes
    }
}
