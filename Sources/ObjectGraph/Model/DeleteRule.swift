/// What happens to a relationship's destinations when its source object is deleted.
public enum DeleteRule: String, Sendable, Hashable {
    /// Remove the deleted object from each destination's inverse relationship.
    case nullify = "Nullify"
    /// Delete the destinations as well.
    case cascade = "Cascade"
    /// Refuse the deletion while the relationship has any destination.
    case deny = "Deny"
    /// Do nothing; destinations keep dangling references (the application's responsibility).
    case noAction = "No Action"
}
