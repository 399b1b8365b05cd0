import Foundation

/// Validates a ``ModelDefinition`` and turns it into an ``ObjectModel``: resolves parents and
/// inheritance, checks destinations and inverses, and computes version hashes.
struct ModelBuilder {
    let definition: ModelDefinition
    let path: String
    let name: String
    let digest: VersionDigest

    private func fail(_ line: Int, _ element: String, _ reason: String) -> ModelError {
        ModelError(file: path, line: line, element: element, reason: reason)
    }

    private static func yes(_ value: String?, default def: Bool) -> Bool {
        guard let v = value else { return def }
        return v.uppercased() == "YES" || v.lowercased() == "true"
    }

    func build() throws -> ObjectModel {
        // Entity names: present and unique.
        var byName: [String: ModelDefinition.Entity] = [:]
        var order: [String] = []
        for entity in definition.entities {
            guard let n = entity.element.attributes["name"], !n.isEmpty else {
                throw fail(entity.element.line, "entity", "entity without a name; add name=\"…\"")
            }
            if byName[n] != nil {
                throw fail(entity.element.line, "entity \"\(n)\"", "duplicate entity name \"\(n)\" (first declared on line \(byName[n]!.element.line)); rename one of them")
            }
            byName[n] = entity
            order.append(n)
        }
        // Parents exist and form no cycle.
        for n in order {
            let e = byName[n]!
            var seen: Set<String> = [n]
            var parent = e.element.attributes["parentEntity"]
            while let p = parent {
                guard let pe = byName[p] else {
                    throw fail(e.element.line, "entity \"\(n)\"", "parent entity \"\(p)\" is not in the model; declare it or remove parentEntity")
                }
                if seen.contains(p) {
                    throw fail(e.element.line, "entity \"\(n)\"", "parent entities form a cycle through \"\(p)\"; break the cycle")
                }
                seen.insert(p)
                parent = pe.element.attributes["parentEntity"]
            }
        }
        // Own properties of each entity.
        var ownAttributes: [String: [AttributeDescription]] = [:]
        var ownRelationships: [String: [RelationshipDescription]] = [:]
        for n in order {
            let e = byName[n]!
            ownAttributes[n] = try e.attributes.map { try buildAttribute($0, entity: n) }
            ownRelationships[n] = try e.relationships.map { try buildRelationship($0, entity: n, entities: byName) }
        }
        // Inherited property lists, with duplicate checks.
        func ancestry(_ n: String) -> [String] {
            var chain: [String] = []
            var cur: String? = n
            while let c = cur { chain.insert(c, at: 0); cur = byName[c]!.element.attributes["parentEntity"] }
            return chain
        }
        var allAttributes: [String: [AttributeDescription]] = [:]
        var allRelationships: [String: [RelationshipDescription]] = [:]
        for n in order {
            var seen: [String: Int] = [:]
            var attrs: [AttributeDescription] = []
            var rels: [RelationshipDescription] = []
            for a in ancestry(n) {
                for attr in ownAttributes[a]! {
                    if let first = seen[attr.name] {
                        throw fail(attr.line, "attribute \"\(attr.name)\" of entity \"\(a)\"", "duplicate property name \"\(attr.name)\" in entity \"\(n)\" (also on line \(first)); rename one of them")
                    }
                    seen[attr.name] = attr.line
                    attrs.append(attr)
                }
                for rel in ownRelationships[a]! {
                    if let first = seen[rel.name] {
                        throw fail(rel.line, "relationship \"\(rel.name)\" of entity \"\(a)\"", "duplicate property name \"\(rel.name)\" in entity \"\(n)\" (also on line \(first)); rename one of them")
                    }
                    seen[rel.name] = rel.line
                    rels.append(rel)
                }
            }
            allAttributes[n] = attrs
            allRelationships[n] = rels
        }
        func isKind(_ n: String, of ancestor: String) -> Bool { ancestry(n).contains(ancestor) }
        // Inverses point back.
        for n in order {
            for rel in ownRelationships[n]! {
                guard let inverse = rel.inverseName else { continue }
                let element = "relationship \"\(rel.name)\" of entity \"\(n)\""
                let inverseEntity = rel.inverseEntityName ?? rel.destinationEntityName
                guard byName[inverseEntity] != nil else {
                    throw fail(rel.line, element, "inverseEntity \"\(inverseEntity)\" is not in the model; fix inverseEntity")
                }
                guard let back = allRelationships[rel.destinationEntityName]!.first(where: { $0.name == inverse }) else {
                    throw fail(rel.line, element, "inverse \"\(inverse)\" does not exist on destination \"\(rel.destinationEntityName)\"; fix inverseName or add the relationship")
                }
                guard back.inverseName == rel.name,
                      isKind(n, of: back.destinationEntityName) || isKind(back.destinationEntityName, of: n) else {
                    throw fail(rel.line, element, "inverse \"\(rel.destinationEntityName).\(inverse)\" does not point back to \"\(n).\(rel.name)\" (it names \(back.destinationEntityName).\(back.inverseName ?? "no inverse")); make the two relationships name each other")
                }
            }
        }
        // Fetch indexes reference real properties.
        var fetchIndexes: [String: [FetchIndexDescription]] = [:]
        for n in order {
            let names = Set(allAttributes[n]!.map(\.name) + allRelationships[n]!.map(\.name))
            fetchIndexes[n] = try byName[n]!.fetchIndexes.map { index in
                let indexName = index.element.attributes["name"] ?? ""
                let elements = try index.items.map { item -> FetchIndexDescription.Element in
                    let prop = item.attributes["property"] ?? ""
                    guard names.contains(prop) else {
                        throw fail(item.line, "fetchIndexElement of fetchIndex \"\(indexName)\" in entity \"\(n)\"", "property \"\(prop)\" is not a property of \"\(n)\"; fix the property name")
                    }
                    return .init(property: prop, ascending: (item.attributes["order"] ?? "ascending") != "descending")
                }
                return FetchIndexDescription(name: indexName, elements: elements)
            }
        }
        // Hashes and final entities.
        var entities: [EntityDescription] = []
        for n in order {
            let e = byName[n]!
            let parent = e.element.attributes["parentEntity"]
            let abstract = Self.yes(e.element.attributes["isAbstract"], default: false)
            let propertyHashes = (ownAttributes[n]!.map { ($0.name, $0.versionHash) } + ownRelationships[n]!.map { ($0.name, $0.versionHash) })
                .sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }
            let hash = digest.hash("entity|\(n)|abstract=\(abstract)|parent=\(parent ?? "")|" + propertyHashes.joined(separator: ","))
            let subs = order.filter { byName[$0]!.element.attributes["parentEntity"] == n }
            entities.append(EntityDescription(
                name: n, isAbstract: abstract, superentityName: parent, subentityNames: subs,
                attributes: allAttributes[n]!, relationships: allRelationships[n]!,
                fetchIndexes: fetchIndexes[n]!,
                renamingIdentifier: e.element.attributes["elementID"] ?? e.element.attributes["renamingIdentifier"],
                userInfo: e.element.userInfo, versionHash: hash, line: e.element.line))
        }
        let modelHash = digest.hash("model|" + entities.sorted { $0.name < $1.name }.map { "\($0.name)=\($0.versionHash)" }.joined(separator: ","))
        return ObjectModel(name: name, entities: entities, versionHash: modelHash, sourcePath: path)
    }

    private func buildAttribute(_ el: ModelDefinition.Element, entity: String) throws -> AttributeDescription {
        let a = el.attributes
        guard let n = a["name"], !n.isEmpty else {
            throw fail(el.line, "attribute of entity \"\(entity)\"", "attribute without a name; add name=\"…\"")
        }
        let element = "attribute \"\(n)\" of entity \"\(entity)\""
        let transient = Self.yes(a["transient"], default: false)
        let typeName = a["attributeType"] ?? ""
        guard let type = AttributeType(rawValue: typeName) else {
            let known = AttributeType.allCases.map(\.rawValue).joined(separator: ", ")
            throw fail(el.line, element, "unknown attribute type \"\(typeName)\"; use one of \(known)")
        }
        let optional = Self.yes(a["optional"], default: false)
        var defaultValue = AttributeValue.null
        if let text = a["defaultValueString"] {
            guard let v = type.parseValueString(text) else {
                throw fail(el.line, element, "default value \"\(text)\" is not a valid \(type.rawValue); fix defaultValueString")
            }
            defaultValue = v
        } else if type == .date, let t = a["defaultDateTimeInterval"], let d = Double(t) {
            defaultValue = .date(Date(timeIntervalSinceReferenceDate: d))
        }
        func bound(_ key: String, _ dateKey: String) throws -> AttributeValue? {
            if type == .date, let t = a[dateKey] {
                guard let d = Double(t) else { throw fail(el.line, element, "\(dateKey) \"\(t)\" is not a number of seconds; fix it") }
                return .date(Date(timeIntervalSinceReferenceDate: d))
            }
            guard let text = a[key] else { return nil }
            let parsed: AttributeValue?
            if type.isNumeric { parsed = type.parseValueString(text) } else { parsed = Int64(text).map { .int($0) } }
            guard let p = parsed else { throw fail(el.line, element, "\(key) \"\(text)\" does not fit type \(type.rawValue); fix it") }
            return p
        }
        let minValue = try bound("minValueString", "minDateTimeInterval")
        let maxValue = try bound("maxValueString", "maxDateTimeInterval")
        let hash = digest.hash("attribute|\(n)|\(type.rawValue)|optional=\(optional)|transient=\(transient)")
        let attribute = AttributeDescription(
            name: n, type: type, isOptional: optional, isTransient: transient, defaultValue: defaultValue,
            minValue: minValue, maxValue: maxValue, isIndexed: Self.yes(a["indexed"], default: false),
            renamingIdentifier: a["elementID"] ?? a["renamingIdentifier"], userInfo: el.userInfo,
            versionHash: hash, line: el.line, isEncrypted: AttributeDescription.marksEncrypted(el.userInfo))
        if attribute.isEncrypted {
            // Only ciphertext reaches the store, so nothing there can order or match the value.
            guard type == .string || type == .binary else {
                throw fail(el.line, element, "only string and binary attributes can be encrypted (this is \(type.rawValue)); remove the encrypted userInfo entry")
            }
            guard !attribute.isIndexed, !transient else {
                throw fail(el.line, element, "an encrypted attribute cannot be \(transient ? "transient" : "indexed") (the store holds only ciphertext); remove \(transient ? "transient" : "indexed")=\"YES\"")
            }
        }
        return attribute
    }

    private func buildRelationship(_ el: ModelDefinition.Element, entity: String, entities: [String: ModelDefinition.Entity]) throws -> RelationshipDescription {
        let a = el.attributes
        guard let n = a["name"], !n.isEmpty else {
            throw fail(el.line, "relationship of entity \"\(entity)\"", "relationship without a name; add name=\"…\"")
        }
        let element = "relationship \"\(n)\" of entity \"\(entity)\""
        guard let destination = a["destinationEntity"], !destination.isEmpty else {
            throw fail(el.line, element, "missing destinationEntity; name the entity the relationship points to")
        }
        guard entities[destination] != nil else {
            throw fail(el.line, element, "destination entity \"\(destination)\" is not in the model; fix destinationEntity")
        }
        let ruleText = a["deletionRule"] ?? "Nullify"
        guard let rule = DeleteRule(rawValue: ruleText) else {
            throw fail(el.line, element, "unknown deletionRule \"\(ruleText)\"; use Nullify, Cascade, Deny or No Action")
        }
        let toMany = Self.yes(a["toMany"], default: false)
        let ordered = Self.yes(a["ordered"], default: false)
        let optional = Self.yes(a["optional"], default: false)
        let transient = Self.yes(a["transient"], default: false)
        func count(_ key: String) throws -> Int {
            guard let t = a[key] else { return 0 }
            guard let v = Int(t), v >= 0 else { throw fail(el.line, element, "\(key) \"\(t)\" is not a non-negative integer; fix it") }
            return v
        }
        var minCount = try count("minCount")
        var maxCount = try count("maxCount")
        if !toMany { minCount = min(minCount, 1); maxCount = 1 }
        if maxCount > 0 && minCount > maxCount {
            throw fail(el.line, element, "minCount \(minCount) exceeds maxCount \(maxCount); fix the counts")
        }
        let inverse = a["inverseName"]
        let hash = digest.hash("relationship|\(n)|\(destination)|inverse=\(inverse ?? "")|toMany=\(toMany)|ordered=\(ordered)|optional=\(optional)|transient=\(transient)")
        return RelationshipDescription(
            name: n, destinationEntityName: destination, inverseName: inverse,
            inverseEntityName: a["inverseEntity"], isToMany: toMany, isOrdered: ordered,
            isOptional: optional, isTransient: transient, minCount: minCount, maxCount: maxCount,
            deleteRule: rule, renamingIdentifier: a["elementID"] ?? a["renamingIdentifier"],
            userInfo: el.userInfo, versionHash: hash, line: el.line)
    }
}
