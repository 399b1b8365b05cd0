public import RecipesKit
public import ObjectGraph

extension ConflictPreference {
    /// The object graph's policy for this preference: `remote` is
    /// `ReplicaMergePolicy.winnerTrumps`, the winner every replica agrees on; `local` is
    /// `ReplicaMergePolicy.localTrumps`: the revision written in this store file (by any
    /// process, before or after a relaunch, as the datastore records) wins for every
    /// property it changed, and the stored winner where none of the conflicting revisions was.
    public var replicaMergePolicy: ReplicaMergePolicy {
        self == .local ? .localTrumps : .winnerTrumps
    }
}
