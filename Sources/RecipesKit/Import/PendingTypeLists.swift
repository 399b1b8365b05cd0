import ObjectGraph

/// The recipe lists of recipe types an import still owes.
///
/// An import links each recipe to its type without updating the type's own list of recipes
/// (`ManagedObject.setPrimitiveObjectID(_:forKey:)`), and notes the move here; the lists are
/// written once, at the end of the import (``SampleImporter``), in the same transaction. A
/// type's list grows with the set, so updating it with each batch meant rewriting 12,500 IDs
/// eight times per batch at 100,000 recipes, and holding them, for every batch saved.
struct PendingTypeLists {
    /// Recipes gained, by type, in the order they were linked.
    private var gained: [ObjectID: [ObjectID]] = [:]
    /// Recipes lost, by type.
    private var lost: [ObjectID: Set<ObjectID>] = [:]

    /// Whether no list is owed.
    var isEmpty: Bool { gained.isEmpty && lost.isEmpty }

    /// The types whose lists change, in ID order.
    var types: [ObjectID] { Set(gained.keys).union(lost.keys).sorted() }

    /// Notes that `recipe` left the type `old` (if any) for `new` (if any).
    mutating func move(_ recipe: ObjectID, from old: ObjectID?, to new: ObjectID?) {
        guard old != new else { return }
        if let old {
            gained[old]?.removeAll { $0 == recipe }
            lost[old, default: []].insert(recipe)
        }
        if let new {
            lost[new]?.remove(recipe)
            gained[new, default: []].append(recipe)
        }
    }

    /// The list of `type` once its moves are applied to `current`: the recipes it lost are
    /// dropped, the ones it gained are added at the end in the order they were linked
    /// (where not there already), as linking each one to the type would have left it.
    func list(of type: ObjectID, from current: [ObjectID]) -> [ObjectID] {
        let lostHere = lost[type] ?? []
        var list = lostHere.isEmpty ? current : current.filter { !lostHere.contains($0) }
        var members = Set(list)
        for recipe in gained[type] ?? [] where members.insert(recipe).inserted { list.append(recipe) }
        return list
    }
}
