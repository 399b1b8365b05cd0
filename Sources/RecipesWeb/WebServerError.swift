/// Why `recipes web` could not start.
public enum WebServerError: Error, Sendable, CustomStringConvertible {
    /// The address could not be bound (in use, not this machine's, no permission).
    case cannotListen(host: String, port: Int, reason: String)
    /// A non-loopback address without a password: anyone on the network could use the book.
    case passwordRequired(host: String)

    /// One sentence naming the cause and the fix.
    public var description: String {
        switch self {
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(host):\(port): \(reason); pick another --port (0 for any free one) or check --bind"
        case .passwordRequired(let host):
            "--bind \(host) makes the book reachable from other machines; give --password-file FILE so that browsers must log in"
        }
    }
}
