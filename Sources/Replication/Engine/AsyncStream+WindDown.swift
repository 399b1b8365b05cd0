extension AsyncStream where Element: Sendable {
    /// The stream's next element, read so that cancelling the caller stops `work` instead of
    /// ending the read: a cancelled read of an `AsyncStream` ends it at once, and what `work`
    /// reports while winding down (a live sync's final `stopped`) would be lost. So the read
    /// runs in a task of its own, which the caller's cancellation does not reach, and the
    /// caller's cancellation cancels `work`.
    public func nextOutlivingCancellation(stopping work: Task<Void, Never>) async -> Element? {
        await withTaskCancellationHandler {
            await Task {
                var reader = self.makeAsyncIterator()
                return await reader.next()
            }.value
        } onCancel: {
            work.cancel()
        }
    }
}
