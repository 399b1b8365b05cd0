import Logging
import Synchronization

/// A swift-log handler that keeps every record, so a test can assert what the code under test
/// reported (the retries it made and their delays) instead of timing it.
final class RecordingLogHandler: LogHandler, Sendable {
    /// One logged message with its metadata.
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let records = Mutex<[Record]>([])

    /// What was logged so far, in order.
    var logged: [Record] { records.withLock { $0 } }

    /// A logger writing into this handler.
    func logger(_ label: String = "test") -> Logger {
        Logger(label: label) { _ in self }
    }

    var logLevel: Logger.Level {
        get { .trace }
        set {}
    }

    var metadata: Logger.Metadata {
        get { [:] }
        set {}
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { nil }
        set {}
    }

    func log(event: LogEvent) {
        records.withLock { $0.append(Record(level: event.level, message: event.message.description, metadata: event.metadata ?? [:])) }
    }
}
