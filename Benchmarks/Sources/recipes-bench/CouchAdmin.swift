import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import DocumentFormat

/// The few administrator calls the benchmarks make to CouchDB (`couch-replicator`,
/// `serve-replicate`), through AsyncHTTPClient's shared client. Not URLSession: while it
/// waits for a long reply (a `POST /_replicate` of minutes) FoundationNetworking keeps a core
/// busy in its libcurl polling, which slowed the server being measured.
struct CouchAdmin: Sendable {
    /// The server's URL, credentials included, without a trailing slash.
    let text: String

    /// The longest wait for one reply (a whole replication).
    private static let timeout = TimeAmount.minutes(30)
    /// Replies larger than this are refused (far above any administrator call's reply).
    private static let maximumReplyBytes = 64 << 20

    init(_ given: String) throws {
        text = given.hasSuffix("/") ? String(given.dropLast()) : given
        guard URLComponents(string: text)?.host != nil else { throw ValidationError("--couchdb is not a URL") }
    }

    /// The URL of database `name` with the administrator's credentials (for the replicator).
    func url(_ name: String) -> String { text + "/" + name }

    func request(_ method: String, _ url: String, body: JSONValue? = nil) async throws -> JSONValue {
        guard var components = URLComponents(string: url) else { throw ValidationError("bad URL") }
        let user = components.user, password = components.password
        components.user = nil
        components.password = nil
        guard let plain = components.url?.absoluteString else { throw ValidationError("bad URL") }
        var request = HTTPClientRequest(url: plain)
        request.method = HTTPMethod(rawValue: method)
        if let user { request.headers.add(name: "Authorization", value: "Basic " + Data("\(user):\(password ?? "")".utf8).base64EncodedString()) }
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body.jsonData()))
            request.headers.add(name: "Content-Type", value: "application/json")
        }
        let response = try await HTTPClient.shared.execute(request, timeout: Self.timeout)
        let data = Data(try await response.body.collect(upTo: Self.maximumReplyBytes).readableBytesView)
        let status = Int(response.status.code)
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
