import Foundation

/// The running count of a fuzz run: replies by status class, what was refused or held open,
/// malformed replies and server errors with a few examples each, liveness checks and crashes.
struct FuzzTally: Encodable {
    /// The figures `--json` prints.
    var seed: UInt64
    var requests = 0
    var replies: [String: Int] = ["2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0]
    var refusedAtHTTPLayer = 0
    var feedsHeldOpen = 0
    var malformed = 0
    var malformedExamples: [String] = []
    var serverErrorExamples: [String] = []
    /// 5xx replies by the endpoint family that drew them.
    var serverErrorsByEndpoint: [String: Int] = [:]
    var livenessChecks = 0
    var livenessFailures = 0
    var crashes = 0
    var serverAlive = true
    var seconds = 0.0

    /// How many examples of each kind are kept.
    static let exampleLimit = 5

    init(seed: UInt64) { self.seed = seed }

    /// Counts one request's verdict; `false` if the server could not be reached.
    mutating func record(_ verdict: CouchReplyCheck.Verdict, for request: FuzzRequest) -> Bool {
        requests += 1
        switch verdict {
        case .couch(let status):
            replies["\(status / 100)xx", default: 0] += 1
            if status >= 500 {
                serverErrorsByEndpoint[request.endpoint, default: 0] += 1
                if serverErrorExamples.count < Self.exampleLimit { serverErrorExamples.append("\(request.summary()) → \(status)") }
            }
        case .refusedFraming:
            refusedAtHTTPLayer += 1
        case .heldOpen:
            feedsHeldOpen += 1
        case .malformed(let reason):
            addMalformed("\(request.summary()) → \(reason)")
        case .unreachable:
            return false
        }
        return true
    }

    /// Counts a malformed reply, keeping the first few as examples.
    mutating func addMalformed(_ example: String) {
        malformed += 1
        if malformedExamples.count < Self.exampleLimit { malformedExamples.append(example) }
    }

    /// The one-line summary.
    var summaryLine: String {
        let classes = ["2xx", "3xx", "4xx", "5xx"].map { "\($0) \(replies[$0] ?? 0)" }.joined(separator: ", ")
        return "fuzz: \(requests) requests (seed \(seed)) in \(String(format: "%.1f", seconds)) s: \(classes); "
            + "\(refusedAtHTTPLayer) refused at the HTTP layer, \(feedsHeldOpen) feeds held open; "
            + "\(malformed) malformed; \(livenessChecks) liveness checks, \(livenessFailures) failed; "
            + "\(crashes) crashes; server \(serverAlive ? "alive" : "DEAD")"
    }

    /// The run failed: the server died or stopped answering, or a reply was malformed.
    var failed: Bool { crashes > 0 || !serverAlive || malformed > 0 || livenessFailures > 0 }
}
