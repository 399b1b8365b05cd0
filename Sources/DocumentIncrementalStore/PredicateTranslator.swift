import DocumentStore
import Foundation
import ObjectGraph
import DocumentFormat

/// Translates object-graph predicates into datastore selectors.
///
/// Each top-level conjunct is translated on its own. A translation is either *exact* (the
/// selector matches exactly the documents the predicate matches) or a *superset* (it narrows
/// the set but the conjunct must still be evaluated in memory); conjuncts that cannot be
/// expressed are left entirely to memory. Key paths through a to-one relationship
/// (`type.name == "Dessert"`) run a sub-query on the destination entity and become
/// `{"type": {"$in": [ids]}}`.
struct PredicateTranslator {
    /// One translated piece.
    struct Piece {
        var selector: JSONValue
        var exact: Bool
    }

    /// The translation of a whole predicate.
    struct Result {
        /// Selector parts to AND together (besides the entity condition).
        var selectors: [JSONValue]
        /// What must still be evaluated in memory (`nil`: nothing).
        var residual: ObjectPredicate?
    }

    let model: ObjectModel
    let entities: [EntityDescription]
    /// Runs a sub-query for documents of `entityNames` matching `selector`; returns their IDs,
    /// or with a field name, the document IDs that relationship field of theirs holds.
    let subquery: (_ entityNames: [String], _ selector: JSONValue, _ collecting: String?) throws -> [String]

    /// Splits `predicate` into pushed selectors and the residual.
    func translate(_ predicate: ObjectPredicate?) throws -> Result {
        guard let predicate else { return Result(selectors: [], residual: nil) }
        let conjuncts: [ObjectPredicate]
        if case .and(let items) = predicate { conjuncts = items } else { conjuncts = [predicate] }
        var selectors: [JSONValue] = []
        var residual: [ObjectPredicate] = []
        for conjunct in conjuncts {
            if let piece = try translate(conjunct, entities: entities) {
                selectors.append(piece.selector)
                if !piece.exact { residual.append(conjunct) }
            } else {
                residual.append(conjunct)
            }
        }
        let rest: ObjectPredicate? = residual.isEmpty ? nil : (residual.count == 1 ? residual[0] : .and(residual))
        return Result(selectors: selectors, residual: rest)
    }

    private func translate(_ predicate: ObjectPredicate, entities: [EntityDescription]) throws -> Piece? {
        switch predicate {
        case .truePredicate: return Piece(selector: [:], exact: true)
        case .falsePredicate: return Piece(selector: ["CDTISEntityName": ["$in": []]], exact: true)
        case .and(let items):
            var parts: [JSONValue] = []
            var exact = true
            for item in items {
                if let piece = try translate(item, entities: entities) {
                    parts.append(piece.selector)
                    exact = exact && piece.exact
                } else {
                    exact = false
                }
            }
            if parts.isEmpty { return nil }
            return Piece(selector: ["$and": .array(parts)], exact: exact)
        case .or(let items):
            var parts: [JSONValue] = []
            var exact = true
            for item in items {
                guard let piece = try translate(item, entities: entities) else { return nil }
                parts.append(piece.selector)
                exact = exact && piece.exact
            }
            if parts.isEmpty { return nil }
            return Piece(selector: ["$or": .array(parts)], exact: exact)
        case .not(let inner):
            guard let piece = try translate(inner, entities: entities), piece.exact else { return nil }
            return Piece(selector: ["$not": piece.selector], exact: true)
        case .comparison(let c):
            return try translate(c, entities: entities)
        }
    }

    private enum Property {
        case attribute(AttributeDescription)
        case toOne(RelationshipDescription)
    }

    /// The property `key` of every entity, if all agree on it.
    private func property(_ key: String, in entities: [EntityDescription]) -> Property? {
        guard let first = entities.first else { return nil }
        if let a = first.attribute(named: key), entities.allSatisfy({ $0.attribute(named: key)?.type == a.type }) {
            return .attribute(a)
        }
        if let r = first.relationship(named: key), r.isToOne,
           entities.allSatisfy({ $0.relationship(named: key).map { $0.isToOne && $0.destinationEntityName == r.destinationEntityName } ?? false }) {
            return .toOne(r)
        }
        return nil
    }

    private static func nullOrMissing(_ field: String) -> JSONValue {
        ["$or": [.object([field: .null]), .object([field: ["$exists": false]])]]
    }

    private func translate(_ c: PredicateComparison, entities: [EntityDescription]) throws -> Piece? {
        guard c.modifier == .direct || c.modifier == .any, case .keyPath(let path) = c.left else { return nil }
        let components = path.split(separator: ".").map(String.init)
        guard let head = components.first else { return nil }
        if components.count == 2, c.modifier == .any, let first = entities.first,
           let relationship = first.relationship(named: head), relationship.isToMany,
           entities.allSatisfy({ $0.relationship(named: head) == relationship }) {
            return try translateAny(c, through: relationship, key: components[1])
        }
        guard let property = property(head, in: entities) else { return nil }
        if components.count == 2, case .toOne(let relationship) = property {
            // Through a to-one relationship: narrow the destinations, then match by ID.
            guard let destination = model.entity(named: relationship.destinationEntityName) else { return nil }
            let destinations = model.entityAndSubentities(of: destination).filter { !$0.isAbstract }
            var inner = c
            inner.left = .keyPath(components[1])
            inner.modifier = .direct
            guard isNullRejecting(inner), let piece = try translate(inner, entities: [destination]) else { return nil }
            let ids = try subquery(destinations.map(\.name), piece.selector, nil)
            // One destination is an equality, which an index serves in sort order.
            let match: JSONValue = ids.count == 1 ? .string(ids[0]) : ["$in": .array(ids.map { .string($0) })]
            return Piece(selector: .object([relationship.name: match]), exact: piece.exact)
        }
        guard components.count == 1, c.modifier == .direct else { return nil }
        switch property {
        case .attribute(let attribute):
            guard let piece = translate(c, attribute: attribute) else { return nil }
            return narrowedByText(piece, c, attribute: attribute, entities: entities)
        case .toOne(let relationship): return translate(c, relationship: relationship)
        }
    }

    /// An equality (`==`, with or without `[c]`, `[d]`) on a string attribute that no value
    /// index serves also asks for what the value implies, so an index narrows the documents
    /// to read and the answer is unchanged: the folded value when a folded index exists (a
    /// B-tree look-up: `type.name == %@` reads the one type of that name), else the text when
    /// a text index does (`ANY ingredients.name == %@` reads the few ingredients with that name, not all).
    private func narrowedByText(_ piece: Piece, _ c: PredicateComparison, attribute: AttributeDescription,
                                entities: [EntityDescription]) -> Piece {
        guard c.op == .equal, entities.count == 1, attribute.type == .string,
              case .constant(.string(let value)) = c.right, !value.isEmpty,
              !ModelIndexes.hasValueIndex(on: attribute, folded: !c.options.isEmpty, in: entities[0]) else { return piece }
        if c.options.isEmpty, ModelIndexes.hasValueIndex(on: attribute, folded: true, in: entities[0]) {
            return Piece(selector: ["$and": [piece.selector, .object([attribute.name: ["$foldEq": .string(value)]])]], exact: piece.exact)
        }
        guard ModelIndexes.isText(attribute) else { return piece }
        return Piece(selector: ["$and": [piece.selector, .object([attribute.name: ["$text": .string(value)]])]], exact: piece.exact)
    }

    /// `ANY rel.key op value` through a to-many relationship whose inverse is stored: the
    /// destinations matching `key op value`, then the owners their inverse names, by ID.
    private func translateAny(_ c: PredicateComparison, through relationship: RelationshipDescription, key: String) throws -> Piece? {
        guard let destination = model.entity(named: relationship.destinationEntityName),
              let inverseName = relationship.inverseName,
              destination.relationship(named: inverseName) != nil else { return nil }
        let destinations = model.entityAndSubentities(of: destination).filter { !$0.isAbstract }
        var inner = c
        inner.left = .keyPath(key)
        inner.modifier = .direct
        guard let piece = try translate(inner, entities: destinations) else { return nil }
        let owners = Array(Set(try subquery(destinations.map(\.name), piece.selector, inverseName))).sorted()
        return Piece(selector: ["_id": ["$in": .array(owners.map { .string($0) })]], exact: piece.exact)
    }

    /// Whether the comparison is false whenever the key's value is nil (so an empty to-one
    /// relationship can be left out of a sub-query's result).
    private func isNullRejecting(_ c: PredicateComparison) -> Bool {
        switch c.op {
        case .equal:
            if case .constant(let v) = c.right { return !v.isNull }
            return true
        case .notEqual: return false
        case .in:
            if case .aggregate(let items) = c.right {
                return !items.contains { if case .constant(.null) = $0 { return true } else { return false } }
            }
            return false
        default: return true
        }
    }

    private func translate(_ c: PredicateComparison, relationship: RelationshipDescription) -> Piece? {
        let field = relationship.name
        func id(_ e: ObjectGraph.PredicateExpression) -> JSONValue? {
            switch e {
            case .object(let oid): return .string(oid.referenceString)
            case .constant(.null): return .null
            default: return nil
            }
        }
        switch c.op {
        case .equal, .notEqual:
            guard let value = id(c.right) else { return nil }
            let eq: JSONValue = value.isNull ? Self.nullOrMissing(field) : .object([field: value])
            return Piece(selector: c.op == .equal ? eq : ["$not": eq], exact: true)
        case .in:
            guard case .aggregate(let items) = c.right else { return nil }
            var values: [JSONValue] = []
            for item in items {
                guard let v = id(item), !v.isNull else { return nil }
                values.append(v)
            }
            return Piece(selector: .object([field: ["$in": .array(values)]]), exact: true)
        default: return nil
        }
    }

    private func translate(_ c: PredicateComparison, attribute: AttributeDescription) -> Piece? {
        let field = attribute.name
        let type = attribute.type
        let numeric: Bool
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .boolean, .date: numeric = true
        case .string, .uuid, .uri: numeric = false
        default: return nil
        }
        let floating = type == .double || type == .float
        // Stored doubles may read back a few ulps off (JSON text parsing), and dates lose
        // precision as seconds since 1970: compare them against widened bounds to narrow the
        // set, and re-check exactly in memory.
        let approximate = floating || type == .date
        let exactValues = !approximate
        func widened(_ q: JSONValue) -> (lo: JSONValue, hi: JSONValue) {
            guard approximate, let d = q.doubleValue else { return (q, q) }
            let slack = abs(d) * 1e-12 + 1e-300
            return (.double(d - slack), .double(d + slack))
        }
        func constant(_ e: ObjectGraph.PredicateExpression) -> AttributeValue? {
            if case .constant(let v) = e { return v }
            return nil
        }
        let stringOptionsOK = c.options.isEmpty
        if type == .string, let piece = translateFolded(c, attribute: attribute) { return piece }
        switch c.op {
        case .equal, .notEqual:
            guard let v = constant(c.right) else { return nil }
            let eq: Piece
            if v.isNull {
                // Non-finite doubles are stored as null with a side key: re-check those.
                eq = Piece(selector: Self.nullOrMissing(field), exact: !floating)
            } else {
                guard stringOptionsOK || numeric, let q = AttributeCodec.queryValue(v, for: type) else { return nil }
                let (lo, hi) = widened(q)
                eq = Piece(selector: approximate ? .object([field: ["$gte": lo, "$lte": hi]]) : .object([field: q]), exact: exactValues)
            }
            if c.op == .equal { return eq }
            guard eq.exact else { return nil }
            return Piece(selector: ["$not": eq.selector], exact: true)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard let v = constant(c.right), !v.isNull, let q = AttributeCodec.queryValue(v, for: type) else { return nil }
            if !numeric && !stringOptionsOK { return nil }
            let op: String
            switch c.op {
            case .lessThan: op = "$lt"
            case .lessThanOrEqual: op = "$lte"
            case .greaterThan: op = "$gt"
            default: op = "$gte"
            }
            let upward = c.op == .greaterThan || c.op == .greaterThanOrEqual
            let (lo, hi) = widened(q)
            var range: JSONObject = approximate ? [upward ? "$gte" : "$lte": upward ? lo : hi] : [op: q]
            if numeric {
                // Numbers collate after null and booleans and before strings.
                if upward { range["$lt"] = "" } else { range["$gt"] = true }
            } else {
                if upward { range["$lt"] = [] } else { range["$gte"] = "" }
            }
            var selector: JSONValue = .object([field: .object(range)])
            if floating {
                let infinite: JSONValue = upward ? "infinity" : "-infinity"
                selector = ["$or": [selector, .object([DocumentLayout.metaKey(field) + ".nonFinite": infinite])]]
            }
            return Piece(selector: selector, exact: exactValues)
        case .between:
            guard case .aggregate(let bounds) = c.right, bounds.count == 2,
                  let lo = constant(bounds[0]), let hi = constant(bounds[1]), !lo.isNull, !hi.isNull,
                  let ql = AttributeCodec.queryValue(lo, for: type), let qh = AttributeCodec.queryValue(hi, for: type),
                  stringOptionsOK || numeric else { return nil }
            if numeric {
                let selector: JSONValue = .object([field: ["$gte": widened(ql).lo, "$lte": widened(qh).hi]])
                return Piece(selector: selector, exact: exactValues)
            }
            return Piece(selector: .object([field: ["$gte": ql, "$lte": qh]]), exact: true)
        case .in:
            guard case .aggregate(let items) = c.right, stringOptionsOK || numeric else { return nil }
            var values: [JSONValue] = []
            for item in items {
                guard let v = constant(item), !v.isNull, let q = AttributeCodec.queryValue(v, for: type) else { return nil }
                values.append(q)
            }
            if values.isEmpty { return Piece(selector: [DocumentLayout.entityNameKey: ["$in": []]], exact: true) }
            if approximate {
                return Piece(selector: ["$or": .array(values.map { q in
                    let (lo, hi) = widened(q)
                    return .object([field: ["$gte": lo, "$lte": hi]])
                })], exact: false)
            }
            return Piece(selector: .object([field: ["$in": .array(values)]]), exact: true)
        case .beginsWith:
            guard type == .string, stringOptionsOK, let v = constant(c.right), case .string(let prefix) = v else { return nil }
            let selector: JSONValue = prefix.isEmpty
                ? .object([field: ["$gte": "", "$lt": []]])
                : .object([field: ["$gte": .string(prefix), "$lt": .string(prefix + "\u{10FFFF}\u{10FFFF}")]])
            return Piece(selector: selector, exact: false)
        default:
            return nil
        }
    }

    /// String comparisons the datastore answers by folding: `==`/`!=`/`IN` with `[c]`, `[d]`
    /// or `[cd]` as `$foldEq` (exact for `[cd]`), and `CONTAINS`, `BEGINSWITH`, `ENDSWITH` on a
    /// text-indexed attribute as `$text` (exact for `CONTAINS[cd]`; the others narrow).
    private func translateFolded(_ c: PredicateComparison, attribute: AttributeDescription) -> Piece? {
        let field = attribute.name
        let both: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
        func text(_ e: ObjectGraph.PredicateExpression) -> String? {
            if case .constant(.string(let s)) = e { return s }
            return nil
        }
        switch c.op {
        case .equal, .notEqual:
            guard !c.options.isEmpty, let value = text(c.right) else { return nil }
            let exact = c.options == both
            let eq: JSONValue = .object([field: ["$foldEq": .string(value)]])
            if c.op == .equal { return Piece(selector: eq, exact: exact) }
            return exact ? Piece(selector: ["$not": eq], exact: true) : nil
        case .in:
            guard !c.options.isEmpty, case .aggregate(let items) = c.right else { return nil }
            var parts: [JSONValue] = []
            for item in items {
                guard let value = text(item) else { return nil }
                parts.append(.object([field: ["$foldEq": .string(value)]]))
            }
            if parts.isEmpty { return Piece(selector: [DocumentLayout.entityNameKey: ["$in": []]], exact: true) }
            return Piece(selector: ["$or": .array(parts)], exact: c.options == both)
        case .contains, .beginsWith, .endsWith:
            guard ModelIndexes.isText(attribute), let value = text(c.right), !value.isEmpty else { return nil }
            return Piece(selector: .object([field: ["$text": .string(value)]]), exact: c.op == .contains && c.options == both)
        default:
            return nil
        }
    }
}
