/// What an import did, or would do with `--dry-run`: the objects created and updated, and
/// how many were already as the set has them. JSON: `{"sets": [String], "changes":
/// [ImportChange], "created": Int, "updated": Int, "unchanged": Int, "skipped": Int}`.
public struct ImportPlan: Sendable, Equatable, Codable {
    /// The imported sets' names.
    public var sets: [String]
    /// Created and updated objects, in import order.
    public var changes: [ImportChange]
    /// Objects already identical to the set's.
    public var unchanged: Int
    /// Objects left out on purpose (samples the user deleted, when seeding).
    public var skipped: Int
    /// Changes counted but not listed in ``changes`` (an importer told not to record them,
    /// so a large import does not hold a line per object), by action and entity.
    public var unlistedChanges: [ImportChange.Action: [String: Int]] = [:]

    /// Makes a plan.
    public init(sets: [String] = [], changes: [ImportChange] = [], unchanged: Int = 0, skipped: Int = 0) {
        self.sets = sets
        self.changes = changes
        self.unchanged = unchanged
        self.skipped = skipped
    }

    /// Number of objects created.
    public var created: Int { changes.count { $0.action == .create } + (unlistedChanges[.create]?.values.reduce(0, +) ?? 0) }
    /// Number of objects updated.
    public var updated: Int { changes.count { $0.action == .update } + (unlistedChanges[.update]?.values.reduce(0, +) ?? 0) }
    /// Whether the import writes nothing.
    public var isEmpty: Bool { created == 0 && updated == 0 }

    private enum CodingKeys: String, CodingKey { case sets, changes, created, updated, unchanged, skipped }

    /// Reads a plan back (the counts are derived, so they are not read).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sets = try c.decode([String].self, forKey: .sets)
        changes = try c.decode([ImportChange].self, forKey: .changes)
        unchanged = try c.decode(Int.self, forKey: .unchanged)
        skipped = try c.decode(Int.self, forKey: .skipped)
    }

    /// Writes every key, counts included.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sets, forKey: .sets)
        try c.encode(changes, forKey: .changes)
        try c.encode(created, forKey: .created)
        try c.encode(updated, forKey: .updated)
        try c.encode(unchanged, forKey: .unchanged)
        try c.encode(skipped, forKey: .skipped)
    }

    /// Per-entity counts for a one-line report: `"3 Recipe, 20 Ingredient"` style parts.
    public func counts(of action: ImportChange.Action) -> [(entity: String, count: Int)] {
        var counts = unlistedChanges[action] ?? [:]
        for change in changes where change.action == action { counts[change.entity, default: 0] += 1 }
        return ["RecipeType", "Recipe", "Image", "Ingredient"].compactMap { entity in
            counts[entity].map { (entity, $0) }
        }
    }
}
