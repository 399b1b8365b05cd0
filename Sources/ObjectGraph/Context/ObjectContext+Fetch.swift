import Foundation

/// Fetching objects, IDs and counts, with unsaved changes reflected.
extension ObjectContext {
    // MARK: Fetch

    /// Objects matching a request (``FetchRequest/resultType`` is ignored; see ``execute(_:)``).
    public func fetch(_ request: FetchRequest) throws -> [ManagedObject] {
        try entering { try fetchObjects(request) }
    }

    /// IDs of the objects matching a request. When no unsaved change can affect the result
    /// and the store answers the request from an index, no object is loaded or registered:
    /// a caller can then read a large result a batch at a time (``existingObjects(with:)``).
    public func fetchObjectIDs(_ request: FetchRequest) throws -> [ObjectID] {
        try entering {
            guard let entity = model.entity(named: request.entityName) else { throw ObjectGraphError.unknownEntity(request.entityName) }
            guard !pendingChangesAffect(request, entity: entity) else { return try fetchObjects(request).map(\.objectID) }
            let limit = (request.fetchLimit ?? 0) > 0 ? request.fetchLimit : nil
            return try coordinator.fetchObjectIDs(entity: entity, includesSubentities: request.includesSubentities,
                                                  predicate: request.predicate, sortDescriptors: request.sortDescriptors,
                                                  fetchLimit: limit, fetchOffset: request.fetchOffset)
        }
    }

    /// Whether the request reflects pending changes and some unsaved change touches an
    /// object of its entity.
    private func pendingChangesAffect(_ request: FetchRequest, entity: EntityDescription) -> Bool {
        request.includesPendingChanges && dirty.values.contains {
            request.includesSubentities ? model.entity($0.entity, isKindOf: entity) : $0.entity.name == entity.name
        }
    }

    /// Number of objects matching a request (limit and offset apply).
    public func count(for request: FetchRequest) throws -> Int {
        try entering { try storeCount(request) ?? fetchObjects(request).count }
    }

    /// The count straight from the store when no pending change can affect it, else `nil`.
    func storeCount(_ request: FetchRequest) throws -> Int? {
        guard let entity = model.entity(named: request.entityName) else { throw ObjectGraphError.unknownEntity(request.entityName) }
        if pendingChangesAffect(request, entity: entity) { return nil }
        guard var n = try coordinator.countRows(entity: entity, includesSubentities: request.includesSubentities,
                                                predicate: request.predicate) else { return nil }
        n = max(0, n - request.fetchOffset)
        if let limit = request.fetchLimit, limit > 0 { n = min(n, limit) }
        return n
    }

    /// The result of a fetch in the shape its ``FetchRequest/resultType`` asks for.
    public enum FetchResult {
        /// Managed objects.
        case objects([ManagedObject])
        /// Object IDs.
        case objectIDs([ObjectID])
        /// A count.
        case count(Int)
    }

    /// Runs a request and returns objects, IDs or a count per its result type.
    public func execute(_ request: FetchRequest) throws -> FetchResult {
        try entering {
            if request.resultType == .count { return .count(try count(for: request)) }
            if request.resultType == .objectIDs { return .objectIDs(try fetchObjectIDs(request)) }
            let objects = try fetchObjects(request)
            switch request.resultType {
            case .objects: return .objects(objects)
            case .objectIDs: return .objectIDs(objects.map(\.objectID))
            case .count: return .count(objects.count)
            }
        }
    }

    func fetchObjects(_ request: FetchRequest) throws -> [ManagedObject] {
        try throwDeferredFailure()
        guard let entity = model.entity(named: request.entityName) else { throw ObjectGraphError.unknownEntity(request.entityName) }
        func matchesEntity(_ o: ManagedObject) -> Bool {
            request.includesSubentities ? model.entity(o.entity, isKindOf: entity) : o.entity.name == entity.name
        }
        let affected = request.includesPendingChanges ? dirty.values.filter(matchesEntity) : []
        let limit = (request.fetchLimit ?? 0) > 0 ? request.fetchLimit : nil
        let storePaging = affected.isEmpty
        let rows: [RowSnapshot]
        do {
            rows = try coordinator.fetchRows(entity: entity, includesSubentities: request.includesSubentities,
                                             predicate: request.predicate, sortDescriptors: request.sortDescriptors,
                                             fetchLimit: storePaging ? limit : nil, fetchOffset: storePaging ? request.fetchOffset : 0,
                                             propertiesToFetch: request.propertiesToFetch)
        } catch ObjectGraphError.store(let e) { throw ObjectGraphError.store(e) }
        var results: [ManagedObject] = []
        for (index, row) in rows.enumerated() {
            let o = try object(with: row.objectID)
            let materialize = request.fetchBatchSize <= 0 || index < request.fetchBatchSize
            if o.pending.isEmpty && !o.deletedFlag && (materialize || o.baseline != nil) {
                let replaces = o.baseline.map { $0.version != row.version } ?? false
                if o.baseline?.version != row.version { o.toManyBaseline = [:] }
                o.baseline = row
                if replaces { o.notifyAllPropertiesChanged() }
            }
            results.append(o)
        }
        guard !storePaging else { return results }
        // Reflect pending changes: drop deleted objects, re-check changed ones, add inserted ones.
        let predicate = request.predicate ?? .truePredicate
        var seen = Set(results.map { ObjectIdentifier($0) })
        var filtered: [ManagedObject] = []
        for o in results {
            if o.deletedFlag { continue }
            if !o.pending.isEmpty, try !PredicateEvaluator.evaluate(predicate, on: o) { continue }
            filtered.append(o)
        }
        for o in affected.sorted(by: { $0.insertionSequence < $1.insertionSequence }) where !o.deletedFlag && !seen.contains(ObjectIdentifier(o)) {
            if try PredicateEvaluator.evaluate(predicate, on: o) {
                filtered.append(o)
                seen.insert(ObjectIdentifier(o))
            }
        }
        filtered = try FetchSortDescriptor.sort(filtered, by: request.sortDescriptors) { $0 }
        var page = Array(filtered.dropFirst(request.fetchOffset))
        if let limit { page = Array(page.prefix(limit)) }
        return page
    }
}

/// Values fetches: what a list prints, without managed objects.
extension ObjectContext {
    /// Hands `body` the values of the objects `request` selects (``ObjectValues``), one at a
    /// time, in its order and page, without registering objects: Core Data's dictionary
    /// results, streamed. Only ``FetchRequest/propertiesToFetch`` are read (`nil`: every
    /// attribute and relationship), with the to-one relationships. When an unsaved change
    /// touches the request's entity, the objects are fetched and their values read instead,
    /// so pending changes show as in ``fetch(_:)->[ManagedObject]``. `body` may use the context (to read an
    /// object whose values it was handed, say).
    public func fetchValues(_ request: FetchRequest, _ body: (ObjectValues) throws -> Void) throws {
        try entering {
            guard let entity = model.entity(named: request.entityName) else { throw ObjectGraphError.unknownEntity(request.entityName) }
            let limit = (request.fetchLimit ?? 0) > 0 ? request.fetchLimit : nil
            guard pendingChangesAffect(request, entity: entity) else {
                return try coordinator.forEachValues(entity: entity, includesSubentities: request.includesSubentities,
                                                     predicate: request.predicate, sortDescriptors: request.sortDescriptors,
                                                     fetchLimit: limit, fetchOffset: request.fetchOffset,
                                                     propertiesToFetch: request.propertiesToFetch, body)
            }
            let wanted = request.propertiesToFetch.map(Set.init)
            for object in try fetchObjects(request) {
                var values = ObjectValues(objectID: object.objectID, attributes: [:], toOne: [:], toMany: [:])
                for name in ObjectValues.attributeNames(of: object.entity, wanted: wanted) {
                    let value = try object.value(forKey: name)
                    if !value.isNull { values.attributes[name] = value }
                }
                for relationship in object.entity.relationships {
                    if relationship.isToMany {
                        if wanted?.contains(relationship.name) ?? true { values.toMany[relationship.name] = try object.objectIDs(forKey: relationship.name) }
                    } else if let destination = try object.objectIDs(forKey: relationship.name).first {
                        values.toOne[relationship.name] = destination
                    }
                }
                try body(values)
            }
        }
    }
}
