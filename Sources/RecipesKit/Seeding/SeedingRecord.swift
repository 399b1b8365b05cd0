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
}
