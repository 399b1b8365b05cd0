/// What the chaos run expects every replica to hold in the end: the recipes present before
/// the first sync, plus those it added, minus those it deleted, and the last overview it
/// wrote on each recipe it added. Each store only edits and deletes its own recipes, so the
/// expectation does not depend on how conflicts resolve.
struct RecipeLedger {
    /// Live recipe names that must be present exactly once everywhere.
    private(set) var expected: Set<String> = []
    /// Names deleted, which must be absent everywhere.
    private(set) var deleted: Set<String> = []
    /// The last overview written on a recipe the run added.
    private(set) var overviews: [String: String] = [:]
    /// The recipes each store added and has not deleted, by store label.
    private(set) var owned: [String: [String]] = [:]

    /// Records recipes present before the run.
    mutating func recordBaseline(_ names: some Sequence<String>) {
        expected.formUnion(names)
    }

    mutating func recordAdd(name: String, overview: String, store: String) {
        expected.insert(name)
        overviews[name] = overview
        owned[store, default: []].append(name)
    }

    mutating func recordEdit(name: String, overview: String) {
        overviews[name] = overview
    }

    mutating func recordDelete(name: String, store: String) {
        expected.remove(name)
        deleted.insert(name)
        overviews[name] = nil
        owned[store]?.removeAll { $0 == name }
    }

    /// Checks one replica's recipe list (name and overview of each): returns the expected
    /// names missing, the names listed more than once, deleted names that came back, and
    /// recipes whose overview is not the last one written.
    func check(_ recipes: [(name: String, overview: String?)]) -> (lost: [String], duplicated: [String], resurrected: [String], stale: [String]) {
        var counts: [String: Int] = [:]
        var overviewByName: [String: String?] = [:]
        for recipe in recipes {
            counts[recipe.name, default: 0] += 1
            overviewByName[recipe.name] = recipe.overview
        }
        let lost = expected.filter { counts[$0] == nil }.sorted()
        let duplicated = counts.filter { $0.value > 1 }.map(\.key).sorted()
        let resurrected = deleted.filter { counts[$0] != nil }.sorted()
        let stale = overviews.filter { name, overview in
            guard let listed = overviewByName[name] else { return false }
            return listed != overview
        }.map(\.key).sorted()
        return (lost, duplicated, resurrected, stale)
    }
}
