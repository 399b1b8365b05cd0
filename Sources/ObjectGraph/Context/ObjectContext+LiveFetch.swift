/// Observing a fetch request.
extension ObjectContext {
    /// A live fetch of `request` on this context's coordinator: iterate it to get the
    /// current results, then a change set after every save (by any context on the
    /// coordinator) or outside change (another process, a replicator writing the same
    /// store) that alters them. See ``LiveFetch``.
    ///
    /// The results are the saved state: this context's unsaved changes are not reflected,
    /// whatever ``FetchRequest/includesPendingChanges`` says.
    public func observe(_ request: FetchRequest, pollInterval: Duration = LiveFetch.defaultPollInterval) -> LiveFetch {
        LiveFetch(coordinator: coordinator, request: request, pollInterval: pollInterval)
    }
}
