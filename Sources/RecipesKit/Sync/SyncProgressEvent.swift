/// Progress of the step that is running, for a progress bar or a log line.
public struct SyncProgressEvent: Sendable, Equatable {
    /// The step (`pull`, `push`).
    public var step: String
    /// Changes handled so far.
    public var processed: Int
    /// Changes expected in all, when the source says.
    public var total: Int?

    /// Makes an event.
    public init(step: String, processed: Int, total: Int?) {
        self.step = step
        self.processed = processed
        self.total = total
    }
}
