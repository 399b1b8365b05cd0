/// Replication conflicts settled through a context.
extension ObjectContext {
    // MARK: Replication conflicts

    /// Resolves every replication conflict the store reports (objects whose rows hold
    /// concurrent versions) as `policy` decides, and returns the objects resolved.
    ///
    /// The store does the work (``IncrementalStore/resolveReplicaConflicts(policy:)``): it
    /// decides every conflict first and writes all resolutions in one transaction, so a
    /// policy that throws or a failed write leaves every conflict as it was. This context's
    /// unchanged objects then show the resolved rows at once; objects it has changed keep
    /// their changes, and their next save meets the resolved row through ``mergePolicy``.
    @discardableResult
    public func resolveReplicaConflicts(policy: ReplicaMergePolicy = .winnerTrumps) throws -> [ObjectID] {
        try entering {
            let resolved = try coordinator.resolveReplicaConflicts(policy: policy)
            for id in resolved {
                guard let object = registered[id], dirty[ObjectIdentifier(object)] == nil else { continue }
                object.baseline = nil
                object.toManyBaseline = [:]
                object.notifyAllPropertiesChanged()
            }
            return resolved
        }
    }
}
