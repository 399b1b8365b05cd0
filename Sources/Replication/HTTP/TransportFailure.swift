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
    /// Retrying cannot help: a URL the client cannot use, a TLS handshake that failed.
    case permanent(String)
    /// The server's certificate is not trusted (the reason says why): retrying cannot help
    /// and nothing falls back to a connection without it.
    case untrustedCertificate(String)

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
        if let error = error as? NIOSSLError, case .handshakeFailed(let underlying) = error {
            // A certificate the system does not trust, or a server that speaks no TLS version
            // in common: the same on every try.
            let text = String(describing: underlying)
            if text.contains("CERTIFICATE_VERIFY_FAILED") {
                self = .untrustedCertificate("it is not signed by a CA this machine trusts, or it has expired")
            } else if text.contains("WRONG_VERSION_NUMBER") || text.contains("HTTP_REQUEST") {
                self = .permanent("TLS handshake failed: the server does not speak TLS on this port (is it plain http://?)")
            } else {
                self = .permanent("TLS handshake failed: \(CredentialMask.masked(text))")
            }
            return
        }
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            self = .untrustedCertificate("it was issued for another name than the one in the URL")
            return
        }
        if let error = error as? NIOSSLError, case .noCertificateToValidate = error {
            self = .untrustedCertificate("the server presented no certificate")
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
        case .untrustedCertificate(let reason): "untrusted certificate: \(reason)"
        }
    }
}
