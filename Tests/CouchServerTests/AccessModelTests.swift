import InteropSupport
import CouchServer
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// CouchDB 3's access model: without credentials only the welcome, `_up` and `_session`
/// answer, unless the server opens reads or everything to anonymous requests.
@Suite("CouchServer access model")
struct AccessModelTests {
    /// CouchDB's 401 body for a database request without credentials.
    static let notAuthorized: JSONValue = ["error": "unauthorized", "reason": "You are not authorized to access this db."]

    /// A server with database `db` holding document `doc`.
    static func serverWithDocument(anonymous: AnonymousAccess) async throws -> TestServer {
        let server = try await TestServer.start(anonymous: anonymous)
        #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
        #expect(try await server.client.send("PUT", "/db/doc", json: ["a": 1], headers: server.auth).status == 201)
        return server
    }

    /// The read requests a replicator or PouchDB makes, as (method, path, JSON body).
    static let reads: [(String, String, JSONValue?)] = [
        ("GET", "/_all_dbs", nil), ("GET", "/db", nil), ("GET", "/db/doc", nil), ("GET", "/db/_all_docs", nil),
        ("GET", "/db/_changes", nil),
        ("POST", "/db/_all_docs", ["keys": ["doc"]]), ("POST", "/db/_find", ["selector": [:]]),
        ("POST", "/db/_bulk_get", ["docs": [["id": "doc"]]]), ("POST", "/db/_revs_diff", ["doc": ["1-a"]]),
        ("POST", "/db/_changes?filter=_doc_ids", ["doc_ids": ["doc"]]),
    ]

    /// The write requests, each of which would change something.
    static let writes: [(String, String, JSONValue?)] = [
        ("PUT", "/db2", nil), ("PUT", "/db/doc2", ["a": 1]), ("POST", "/db", ["a": 1]),
        ("POST", "/db/_bulk_docs", ["docs": [["a": 1]]]), ("PUT", "/db/_local/cp", ["seq": 1]),
        ("POST", "/db/_index", ["index": ["fields": ["a"]]]), ("DELETE", "/db", nil),
    ]

    static func send(_ server: TestServer, _ request: (String, String, JSONValue?), headers: [String: String] = [:]) async throws -> HTTPReply {
        if let json = request.2 { return try await server.client.send(request.0, request.1, json: json, headers: headers) }
        return try await server.client.send(request.0, request.1, headers: headers)
    }

    @Test("By default every endpoint but GET /, /_up and /_session needs a user; credentials or a cookie open them")
    func defaultNeedsAUser() async throws {
        try await withServer(Self.serverWithDocument(anonymous: .none)) { server in
            #expect(try await server.client.send("GET", "/").json().objectValue?["couchdb"] == "Welcome")
            #expect(try await server.client.send("HEAD", "/").status == 200)
            #expect(try await server.client.send("GET", "/_up").json() == ["status": "ok"])
            #expect(try await server.client.send("GET", "/_session").status == 200)

            for read in Self.reads {
                let reply = try await Self.send(server, read)
                #expect(reply.status == 401, "\(read.0) \(read.1)")
                #expect(try reply.json().objectValue?["error"] == "unauthorized", "\(read.0) \(read.1)")
                if read.1.hasPrefix("/db") { #expect(try reply.json() == Self.notAuthorized, "\(read.0) \(read.1)") }
                #expect(try await Self.send(server, read, headers: server.auth).status == 200, "\(read.0) \(read.1)")
            }
            #expect(try await server.client.send("HEAD", "/db/doc").status == 401)
            #expect(try await server.client.send("GET", "/_uuids").status == 401)
            for write in Self.writes {
                #expect(try await Self.send(server, write).status == 401, "\(write.0) \(write.1)")
            }
            #expect(try await server.client.send("GET", "/db/doc").status == 401)

            let login = try await server.client.send("POST", "/_session", json: ["name": "admin", "password": "password"])
            #expect(login.status == 200)
            let cookie = String(try #require(login.header("Set-Cookie")).split(separator: ";")[0])
            #expect(try await server.client.send("GET", "/db/doc", headers: ["Cookie": cookie]).json().objectValue?["a"] == 1)
            #expect(try await server.client.send("GET", "/db", headers: ["Cookie": "AuthSession=forged"]).status == 401)
            #expect(try await server.client.send("DELETE", "/_session").status == 200)
        }
    }

    @Test("Anonymous reads open GET, HEAD and the read-only POSTs, and nothing that writes")
    func anonymousReads() async throws {
        try await withServer(Self.serverWithDocument(anonymous: .reads)) { server in
            for read in Self.reads {
                #expect(try await Self.send(server, read).status == 200, "\(read.0) \(read.1)")
            }
            #expect(try await server.client.send("HEAD", "/db/doc").status == 200)
            for write in Self.writes {
                let reply = try await Self.send(server, write)
                #expect(reply.status == 401, "\(write.0) \(write.1)")
                #expect(try reply.json().objectValue?["error"] == "unauthorized", "\(write.0) \(write.1)")
            }
            let info = try await server.client.send("GET", "/db", headers: server.auth).json()
            #expect(info.objectValue?["doc_count"] == 1)
            #expect(try await server.client.send("GET", "/_all_dbs").json() == ["db"])
        }
    }

    @Test("Anonymous access to everything lets writes through without credentials")
    func anonymousEverything() async throws {
        try await withServer(Self.serverWithDocument(anonymous: .all)) { server async throws in
            for request in Self.reads {
                #expect(try await Self.send(server, request).status == 200, "\(request.0) \(request.1)")
            }
            for write in Self.writes.dropLast() {
                #expect((200..<300).contains(try await Self.send(server, write).status), "\(write.0) \(write.1)")
            }
            // doc, doc2, the posted and the bulk document, and the index's design document.
            #expect(try await server.client.send("GET", "/db").json().objectValue?["doc_count"] == 5)
        }
    }
}
