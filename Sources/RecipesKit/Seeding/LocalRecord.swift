import DocumentStore
import Foundation
import DocumentFormat

/// Reads and writes a `Codable` value as a store's local document (`_local/<id>`: never
/// replicated, no history), for per-machine state such as whether the store was seeded
/// and how the last sync went.
enum LocalRecord {
    /// The value stored under `id`, or `nil` when there is none or it cannot be read as `T`
    /// (a record written by another version starts over instead of failing the command).
    static func read<T: Decodable>(_ type: T.Type, id: String, in store: DocumentStore) throws -> T? {
        guard let body = try store.getLocal(id: id) else { return nil }
        // The store's own writer: JSONEncoder's first use costs a command's start more.
        return try? JSONDecoder().decode(T.self, from: JSONWriter.canonical.data(.object(body)))
    }

    /// Stores `value` under `id`, replacing what was there.
    static func write<T: Encodable>(_ value: T, id: String, in store: DocumentStore) throws {
        let data = try JSONEncoder().encode(value)
        guard case .object(let body) = try JSONDecoder().decode(JSONValue.self, from: data) else {
            throw RecipesError.store("local record \(id) does not encode as a JSON object")
        }
        try store.putLocal(id: id, body: body)
    }
}
