/// What a successful save returns: the new version of every inserted and updated row.
public struct StoreSaveResult: Sendable, Hashable {
    /// New row versions by object ID.
    public var versions: [ObjectID: RowVersion]

    /// Creates a result.
    public init(versions: [ObjectID: RowVersion]) { self.versions = versions }
}
