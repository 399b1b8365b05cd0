import DocumentStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every document of one replica as the changes feed shows it: for each ID, whether the
/// winner is deleted and all leaf revisions, winner first. Two replicas that hold the same
/// documents at the same revisions have equal snapshots.
struct ReplicaSnapshot: Equatable {
    /// A document's state: tombstone or not, and its leaves (winner first).
    struct Entry: Equatable {
        var deleted: Bool
        var leaves: [String]
    }

    /// The documents by ID.
    var documents: [String: Entry]

    /// Reads a store file through DocumentStore (no other process should be writing it).
    init(storePath: String) throws {
        let store = try DocumentStore(url: URL(fileURLWithPath: storePath))
        defer { try? store.close() }
        var documents: [String: Entry] = [:]
        try store.forEachChange { change in
            documents[change.id] = Entry(deleted: change.deleted, leaves: change.revisions.map(\.description))
        }
        self.documents = documents
    }

    /// Reads `GET {database}/_changes?style=all_docs` of a server, with basic auth.
    init(database: URL, user: String, password: String) async throws {
        var components = URLComponents(url: database.appendingPathComponent("_changes"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "style", value: "all_docs")]
        var request = URLRequest(url: components.url!)
        request.setValue("Basic " + Data("\(user):\(password)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 60
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200,
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let results = object["results"] as? [[String: Any]] else {
            throw ChaosError("unexpected _changes reply: \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        var documents: [String: Entry] = [:]
        for result in results {
            guard let id = result["id"] as? String, let changes = result["changes"] as? [[String: Any]] else { continue }
            documents[id] = Entry(deleted: result["deleted"] as? Bool ?? false, leaves: changes.compactMap { $0["rev"] as? String })
        }
        self.documents = documents
    }

    /// The IDs whose entries differ between the two snapshots (or that only one holds), sorted.
    func differences(from other: ReplicaSnapshot) -> [String] {
        Set(documents.keys).union(other.documents.keys).filter { documents[$0] != other.documents[$0] }.sorted()
    }
}
