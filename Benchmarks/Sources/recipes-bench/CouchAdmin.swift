import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import DocumentFormat

/// The few administrator calls the benchmarks make to CouchDB (`couch-replicator`,
/// `serve-replicate`).
struct CouchAdmin: Sendable {
    /// The server's URL, credentials included, without a trailing slash.
    let text: String
    let session: URLSession

    init(_ given: String) throws {
        text = given.hasSuffix("/") ? String(given.dropLast()) : given
        guard URLComponents(string: text)?.host != nil else { throw ValidationError("--couchdb is not a URL") }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 1_800
        session = URLSession(configuration: configuration)
    }

    /// The URL of database `name` with the administrator's credentials (for the replicator).
    func url(_ name: String) -> String { text + "/" + name }

    func request(_ method: String, _ url: String, body: JSONValue? = nil) async throws -> JSONValue {
        guard var components = URLComponents(string: url) else { throw ValidationError("bad URL") }
        let user = components.user, password = components.password
        components.user = nil
        components.password = nil
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        if let user { request.setValue("Basic " + Data("\(user):\(password ?? "")".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body.jsonData()
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = (try? JSONValue.parse(data)) ?? .null
        guard (200..<300).contains(status) else {
            throw ValidationError("\(method) \(components.url?.path ?? url) answered \(status): \(String(decoding: data.prefix(1_000), as: UTF8.self))")
        }
        return json
    }

    func info(url: String) async throws -> (docs: Int, deleted: Int) {
        let reply = try await request("GET", url)
        return (Int(reply.objectValue?["doc_count"]?.intValue ?? -1), Int(reply.objectValue?["doc_del_count"]?.intValue ?? -1))
    }

    func replicate(from source: String, to target: String) async throws -> JSONObject {
        let reply = try await request("POST", text + "/_replicate",
                                      body: ["source": .string(source), "target": .string(target), "create_target": true])
        guard let object = reply.objectValue, object["ok"] == true else { throw ValidationError("the replication failed: \(reply)") }
        return object
    }

    func delete(_ name: String) async {
        _ = try? await request("DELETE", url(name))
    }
}
