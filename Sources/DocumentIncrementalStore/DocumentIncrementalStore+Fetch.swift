import DocumentStore
import Foundation
public import ObjectGraph
public import DocumentFormat

/// Fetches: predicates and sorts pushed down to the document store's indexes.
extension DocumentIncrementalStore {
    /// The selector matching documents of the given entities.
    static func entitySelector(_ names: [String]) -> JSONValue {
        names.count == 1 ? .object([DocumentLayout.entityNameKey: .string(names[0])])
            : .object([DocumentLayout.entityNameKey: ["$in": .array(names.map { .string($0) })]])
    }

    /// Sort keys the datastore orders exactly as the object graph does: plain keys, and
    /// string keys ignoring both case and accents (folded).
    func pushableSort(_ descriptors: [FetchSortDescriptor], entities: [EntityDescription]) -> [SortField]? {
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
    func subquery(_ entityNames: [String], _ selector: JSONValue, collecting field: String?) throws -> [String] {
        var query = Query(selector: ["$and": [Self.entitySelector(entityNames), selector]])
        query.fields = field.map { [$0] } ?? []
        subqueryLog?.append(query)
        if field == nil, let ids = try ds({ try reader.findIDs(query) }) { return ids }
        var ids: [String] = []
        try ds {
            try reader.forEachMatch(of: query) { revision in
                guard let field else { return ids.append(revision.id) }
                switch revision.body[field] {
                case .string(let id)?: ids.append(id)
                case .array(let items)?: ids += items.compactMap(\.stringValue)
                default: return
                }
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
            // Each winner is decoded as it is read, so the parsed bodies are not all held at
            // once beside their rows. Attachments stay deferred, so decoding reads nothing
            // more from the store inside the query's read.
            var rows: [RowSnapshot] = []
            if let limit = query.limit { rows.reserveCapacity(min(limit, 1_000)) }
            try ds {
                try reader.forEachMatch(of: query) { revision in
                    if let decoded = try decode(revision, fetched: fetched) { rows.append(decoded.row) }
                }
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
                try reader.forEachMatch(of: query) { revision in
                    guard let name = revision.body[DocumentLayout.entityNameKey]?.stringValue else { return }
                    if readings[name] == nil {
                        guard let reading = codec.valuesReading(entityName: name, wanted: wanted) else { return }
                        readings[name] = reading
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
                  let ids = try ds({ try reader.findIDs(pushed.query) }) else { return nil }
            return ids.map { ObjectID(entityName: entityName, referenceString: $0) }
        }
    }

    /// How the datastore reads a fetch (`DocumentStore.explain(_:)`: an index name, a
    /// candidate set or a scan) and what is left to evaluate in memory, for tests and
    /// diagnostics. Sub-queries of key paths through relationships do run.
    public func explain(_ request: StoreFetchRequest) throws -> (plan: String, residual: ObjectPredicate?) {
        try locked {
            guard let pushed = try pushedDown(request) else { return ("nothing", nil) }
            return (try ds { try reader.explain(pushed.query) }, pushed.residual)
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
                (query.selector, try ds { try reader.explain(query) }, try ds { try reader.explainQueryPlan(query) })
            }
        }
    }

    /// A fetch as a datastore query: the translated predicate, the sort and the page when
    /// the store can apply them; `nil` when no requested entity exists.
    func pushedDown(_ request: StoreFetchRequest) throws
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
            return try ds { try reader.count(selector: selector) }
        }
    }
}
