/// Hearing about a context's saves and the changes it took in.
extension ObjectContext {
    // MARK: Notifications

    /// Every successful save of this context from now on, as ``SaveNotification``s (hand one
    /// to another context's ``mergeChanges(from:)``). The sequence ends when the task
    /// iterating it stops or the context is gone; nothing needs removing.
    public func saves() -> AsyncStream<SaveNotification> {
        saveStreams.stream()
    }

    /// The changes the store reported underneath (another process, a replicator), from now
    /// on, each posted once this context has taken it in, so an application can reload what
    /// it shows. The sequence ends as ``saves()``'s does.
    public func storeChanges() -> AsyncStream<StoreChangeSet> {
        storeChangeStreams.stream()
    }
}
