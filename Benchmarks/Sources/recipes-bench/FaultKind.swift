/// What the chaos proxy does to one HTTP request on its way to the server.
enum FaultKind: String, CaseIterable, Sendable, Comparable {
    /// Forwards the request and relays the whole reply.
    case pass
    /// Closes the client's connection without forwarding the request.
    case dropBeforeForward = "drop_before_forward"
    /// Forwards the request, so the server acts on it, then closes the client's connection
    /// without relaying the reply.
    case dropAfterForward = "drop_after_forward"
    /// Answers 500 without forwarding.
    case status500 = "status_500"
    /// Answers 502 without forwarding.
    case status502 = "status_502"
    /// Answers 503 without forwarding.
    case status503 = "status_503"
    /// Forwards the request, relays the reply's head and half its body, then closes.
    case truncate
    /// Waits a random time of up to two seconds, then forwards as `pass` does.
    case delay

    /// The faults, without `pass`, in the order a draw picks among them.
    static let faults: [FaultKind] = allCases.filter { $0 != .pass }

    /// The status a canned reply carries, for the status faults.
    var cannedStatus: (code: Int, reason: String)? {
        switch self {
        case .status500: (500, "Internal Server Error")
        case .status502: (502, "Bad Gateway")
        case .status503: (503, "Service Unavailable")
        default: nil
        }
    }

    static func < (lhs: FaultKind, rhs: FaultKind) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
