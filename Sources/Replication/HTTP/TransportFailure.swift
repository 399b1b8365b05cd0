import AsyncHTTPClient
import CouchProtocol
import Foundation
import NIOCore
import NIOSSL
import HTTPSupport

/// What a failed HTTP exchange means for the replication client: stop (cancelled), try the
/// same request again later (transient), or give up at once (permanent), with a sentence for
/// the error (credentials masked).
enum TransportFailure: Sendable, Equatable {
    /// The calling task was cancelled.
    case cancelled
    /// The server took too long: no reply, or no bytes for longer than the read timeout.
    case timedOut
    /// The server could not be reached or dropped the connection; may work on a retry.
    case transient(String)
    /// Retrying cannot help: a URL the client cannot use, a certificate it does not trust.
    case permanent(String)

    /// Classifies an error thrown while sending a request or receiving its reply.
    init(_ error: any Error) {
        if error is CancellationError {
            self = .cancelled
            return
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled, .requestStreamCancelled:
                self = .cancelled
            case .readTimeout, .deadlineExceeded, .writeTimeout:
                self = .timedOut
            case .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath, .invalidRedirectConfiguration,
                 .redirectLimitReached, .redirectCycleDetected, .traceRequestWithBody,
                 .alreadyShutdown, .shutdownUnsupported:
                self = .permanent(error.description)
            default:
                self = .transient(error.description)
            }
            return
        }
        if let error = error as? NIOSSLError, case .handshakeFailed = error {
            // A certificate the system does not trust, or a server that speaks no TLS version
            // in common: the same on every try.
            self = .permanent("TLS handshake failed: \(CredentialMask.masked(String(describing: error)))")
            return
        }
        // Refused or reset connections, name resolution failures, a connection closed
        // mid-reply: the server may be back on the next try.
        if let error = error as? IOError {
            self = .transient("\(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))")
            return
        }
        self = .transient(CredentialMask.masked(String(describing: error)))
    }

    /// The sentence for logs and errors.
    var detail: String {
        switch self {
        case .cancelled: "cancelled"
        case .timedOut: "no reply in time"
        case .transient(let detail), .permanent(let detail): detail
        }
    }
}
