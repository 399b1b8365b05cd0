public import Foundation

/// How a `CouchDatabase` talks to its server: authentication, timeouts, retries, connections.
public struct CouchClientOptions: Sendable {
    /// How credentials are presented.
    public enum Authentication: Sendable, Equatable {
        /// `Authorization: Basic …` on every request.
        case basic
        /// One `POST /_session` login, then the `AuthSession` cookie (renewed on a 401).
        case cookieSession
    }

    /// How to present credentials (from the URL or `user`/`password` here).
    public var authentication: Authentication = .basic
    /// A user name that overrides the one in the URL.
    public var user: String?
    /// A password that overrides the one in the URL (never printed).
    public var password: String?
    /// Seconds to wait for a reply to start before a request counts as timed out.
    public var requestTimeout: TimeInterval = 30
    /// Retries after a connection error, a timeout or a 5xx reply, before giving up.
    public var maxRetries: Int = 5
    /// Delay before the first retry; it doubles on each further one.
    public var initialBackoff: TimeInterval = 0.1
    /// Longest delay between two retries.
    public var maxBackoff: TimeInterval = 5
    /// Connections opened to the server at most (concurrent `_bulk_get` / `_bulk_docs`).
    public var maxConnections: Int = 4
    /// A revision carrying more attachment bytes than this travels on its own as multipart,
    /// raw bytes never held twice, as CouchDB's replicator moves every attachment: on pull a
    /// `multipart/mixed` `open_revs` reply, on push a `multipart/related` PUT streamed from a
    /// temporary file. Revisions carrying less go base64-inline in the batched `_bulk_get` /
    /// `_bulk_docs`, which saves a request per document. 0 sends every attachment as multipart.
    public var multipartAttachmentThreshold: Int = 64 * 1024

    /// The largest reply body held in memory, in bytes. Replies come from the remote and
    /// their sizes are not trusted: a longer one fails the request instead of growing memory
    /// without bound. Attachment downloads go through a temporary file and are not limited.
    public var maximumReplyBytes: Int = 512 << 20

    /// Certificate authorities trusted for `https://` remotes besides the system's roots
    /// (`--ca-file`); `nil` trusts the system's roots only. The server's certificate is
    /// always verified, and so is the name it was issued for.
    public var trustedCertificates: TrustedCertificates?

    /// Default options: basic auth, 30 s timeout, 5 retries with backoff from 0.1 s, 4 connections.
    public init() {}
}
