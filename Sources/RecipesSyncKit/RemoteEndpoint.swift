public import RecipesKit
import DocumentStore
public import Foundation
public import Logging
public import Replication

/// The other side of a sync, made from the configured remote: a CouchDB-compatible server
/// (http/https URL) or another store file on this machine (any other location).
public enum RemoteEndpoint {
    /// A replication peer for `url` (a server is reached with `clientOptions`).
    /// - Throws: `RecipesError.store(_:cause:)` naming the remote (password masked) when it is
    ///   not usable.
    public static func peer(for url: URL, clientOptions: CouchClientOptions = .init(),
                            logger: Logger = Logger(label: "recipes.sync")) throws(RecipesError) -> any ReplicationPeer {
        if url.isFileURL {
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                return LocalDatabase(store: try DocumentStore(path: url.path))
            } catch {
                throw .store("cannot open the remote store \(url.path): \(error); check the path", cause: error)
            }
        }
        do {
            return try CouchDatabase(url: url.absoluteString, options: clientOptions, logger: logger)
        } catch {
            throw .store("the remote \(URLMasking.masked(url.absoluteString)) is not usable: \(error)", cause: error)
        }
    }
}
