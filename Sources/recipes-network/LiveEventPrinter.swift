import Foundation
import RecipesCommandLine
import Replication

/// Prints live sync events: one line each on stderr, or one JSON object each on stdout.
struct LiveEventPrinter: Sendable {
    let json: Bool
    let remote: String

    /// One event as `--json` prints it; every key is always there (`null` when it does not
    /// apply), as the command-line reference documents.
    struct Record: Encodable {
        var event: String
        var time: String
        var count: Int?
        var error: String?
        var retryIn: Double?
        var remote: String
    }

    func print(_ event: LiveSyncEvent) {
        if json {
            var record = Record(event: name(event), time: ISO8601DateFormatter().string(from: Date()), remote: remote)
            switch event {
            case .pulled(let count), .pushed(let count): record.count = count
            case .offline(let error, let delay):
                record.error = error.description
                record.retryIn = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
            case .stopped(.failed(let error)): record.error = error.description
            default: break
            }
            try? Terminal.printJSONLine(record)
        } else {
            // A failure's reason follows as the last line, `recipes: REASON`, as for every command.
            let text = switch event {
            case .connected: "connected to \(remote)"
            case .stopped: "stopped"
            default: event.description
            }
            FileHandle.standardError.write(Data("live: \(text)\n".utf8))
        }
    }

    private func name(_ event: LiveSyncEvent) -> String {
        switch event {
        case .connected: "connected"
        case .pulled: "pulled"
        case .pushed: "pushed"
        case .caughtUp: "caughtUp"
        case .offline: "offline"
        case .stopped: "stopped"
        }
    }
}
