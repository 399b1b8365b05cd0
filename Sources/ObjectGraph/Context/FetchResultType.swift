/// What a context fetch returns.
public enum FetchResultType: Sendable, Hashable {
    /// Managed objects registered in the context.
    case objects
    /// Object IDs only.
    case objectIDs
    /// The number of matching objects.
    case count
}
