/// An error of the replication layer, which RecipesKit does not link (a program that only
/// browses stays free of the HTTP client): RecipesSyncKit makes the replication engine's
/// errors conform, so ``SyncFailure`` can classify them and ``RecipesError/rootCause`` can
/// look underneath them like under any other layer's error.
package protocol ReplicationLayerError: Error {
    /// What kind of sync failure this error is and whether running the sync again can
    /// succeed; `nil` when it only wraps another error (see ``underlyingCause``).
    var syncFailureKind: (kind: SyncFailure.Kind, isTransient: Bool)? { get }
    /// The error this one wraps, if any.
    var underlyingCause: (any Error)? { get }
}
