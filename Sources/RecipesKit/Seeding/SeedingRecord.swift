import DocumentFormat

/// What first-run seeding decided for one store, kept in its local document
/// `_local/recipes-seeding`. Its presence marks the store initialised: seeding never runs
/// again, so samples the user deleted never come back.
public struct SeedingRecord: Sendable, Equatable, Codable {
    /// Why the store is initialised the way it is.
    public enum Outcome: String, Sendable, Equatable, Codable {
        /// The samples were imported.
        case seeded
        /// The store (after pulling from the remote) already held recipe documents, live or
        /// deleted, so nothing was imported.
        case alreadyHadRecipes = "already-had-recipes"
        /// Seeding was turned off (`--no-samples`, `RECIPES_NO_SAMPLES`).
        case samplesDisabled = "samples-disabled"
        /// The first command was an import of the user's own data.
        case importedByUser = "imported-by-user"
    }

    /// The decision.
    public var outcome: Outcome
    /// The sample sets imported (empty unless seeded).
    public var sets: [String]
    /// Objects created by seeding.
    public var objectsCreated: Int
    /// When it happened (ISO 8601, UTC).
    public var date: String

    /// Makes a record.
    public init(outcome: Outcome, sets: [String] = [], objectsCreated: Int = 0, date: String) {
        self.outcome = outcome
        self.sets = sets
        self.objectsCreated = objectsCreated
        self.date = date
    }

    /// The record a local document holds, read member by member: every command's start
    /// asks whether the store was seeded, and a `JSONDecoder`'s first use costs more than
    /// the rest of that question. `nil` when a member is missing or of another kind, as a
    /// record another version wrote may be (the store then starts over, as with the
    /// decoder).
    init?(json body: JSONObject) {
        guard let outcome = body["outcome"]?.stringValue.flatMap(Outcome.init(rawValue:)),
              let sets = body["sets"]?.arrayValue, let names = Optional(sets.compactMap(\.stringValue)), names.count == sets.count,
              let objects = body["objectsCreated"]?.intValue, let created = Int(exactly: objects),
              let date = body["date"]?.stringValue else { return nil }
        self.init(outcome: outcome, sets: names, objectsCreated: created, date: date)
    }
}
