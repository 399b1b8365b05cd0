public import RecipesKit
import DocumentStore
public import Foundation
public import Logging
public import Replication
import ObjectGraph
import ObjectSync
import DocumentIncrementalStore
import DocumentFormat
import HTTPSupport

extension RecipesStore {
    /// A sync of this store with the peer at `remoteURL` (a server is reached with `clientOptions`).
    public func sync(with remoteURL: URL, clientOptions: CouchClientOptions = .init(),
                     logger: Logger = Logger(label: "recipes.sync")) throws(RecipesError) -> RecipesSync {
        let remote: any ReplicationPeer
        do {
            remote = try StoreSync.peer(for: remoteURL, clientOptions: clientOptions, logger: logger)
        } catch {
            throw .store(error.description, cause: error)
        }
        let steps = StoreSync(documentStore: documentStore, incrementalStore: incrementalStore, coordinator: container.coordinator,
                              remote: remote, remoteDescription: CredentialMask.masked(remoteURL.isFileURL ? remoteURL.path : remoteURL.absoluteString),
                              logger: logger)
        return RecipesSync(steps: steps, storeURL: url, logger: logger)
    }
}
