import InteropSupport
import CouchServer
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// What keeps a web page from using the server through a visitor's browser: the `Host` check
/// against DNS rebinding, JSON-only endpoints against cross-site form posts, and a session
/// cookie that scripts cannot read and other sites' POSTs do not carry.
@Suite("CouchServer browser safety")
struct BrowserSafetyTests {
    /// The reply to `GET /` sent with `Host: host`.
    static func welcome(port: Int, host: String) async throws -> HTTPReply {
        let connection = try RawHTTPConnection(port: port)
        try await connection.sendHead(["GET / HTTP/1.1", "Host: \(host)", "Connection: close"])
        return try await connection.readReply()
    }

    @Test("A loopback server answers loopback names and --public-host names only, on its own port")
    func loopbackHostCheck() async throws {
        try await withServer(TestServer.start { $0.publicHosts = ["Recipes.example"] }) { server in
            let port = try #require(server.server.port)
            for host in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "localhost", "LOCALHOST:\(port)",
                         "recipes.example:\(port)", "recipes.example"] {
                #expect(try await Self.welcome(port: port, host: host).status == 200, "\(host)")
            }
            for host in ["evil.example:\(port)", "evil.example", "localhost.evil.example:\(port)", "localhost:\(port + 1)",
                         "10.0.0.7:\(port)", "127.0.0.1:\(port):1"] {
                let reply = try await Self.welcome(port: port, host: host)
                #expect(reply.status == 400, "\(host)")
                #expect(try RequestHardeningTests.error(reply) == "bad_request", "\(host)")
            }
            // The check comes first: a rebound page learns nothing, not even that it needs a user.
            let connection = try RawHTTPConnection(port: port)
            try await connection.sendHead(["GET /_all_dbs HTTP/1.1", "Host: evil.example:\(port)", "Connection: close"]
                + server.auth.map { "\($0.key): \($0.value)" })
            #expect(try await connection.readReply().status == 400)
        }
    }

    @Test("A server bound to every address answers any IP address and its public names, but no other name")
    func wildcardHostCheck() async throws {
        try await withServer(TestServer.start { $0.host = "0.0.0.0"; $0.publicHosts = ["recipes.example"] }) { server in
            let port = try #require(server.server.port)
            for host in ["192.0.2.10:\(port)", "[2001:db8::1]:\(port)", "localhost:\(port)", "recipes.example:\(port)"] {
                #expect(try await Self.welcome(port: port, host: host).status == 200, "\(host)")
            }
            #expect(try await Self.welcome(port: port, host: "evil.example:\(port)").status == 400)
        }
    }

    @Test("JSON endpoints answer 415 to other content types; document PUTs take multipart/related, _session a form")
    func contentTypes() async throws {
        try await withServer(TestServer.start()) { server in
            let port = try #require(server.server.port)
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
            let badType: JSONValue = ["error": "bad_content_type", "reason": "Content-Type must be application/json"]
            let docs = Data(#"{"docs":[{"_id":"forged"}]}"#.utf8)
            for (method, path, type) in [
                ("POST", "/db/_bulk_docs", "text/plain"), ("POST", "/db/_bulk_docs", "application/x-www-form-urlencoded"),
                ("POST", "/db/_bulk_docs", "multipart/form-data; boundary=x"), ("POST", "/db", "text/plain"),
                ("POST", "/db/_all_docs", "text/plain"), ("POST", "/db/_find", "text/plain"), ("POST", "/db/_bulk_get", "text/plain"),
                ("POST", "/db/_revs_diff", "text/plain"), ("POST", "/db/_index", "text/plain"), ("PUT", "/db/forged", "text/plain"),
                ("PUT", "/db/_local/forged", "multipart/related; boundary=x"), ("POST", "/_session", "text/plain"),
            ] {
                let reply = try await server.client.send(method, path, headers: server.auth.merging(["Content-Type": type]) { $1 }, body: docs)
                #expect(reply.status == 415, "\(method) \(path) \(type)")
                #expect(try reply.json() == badType, "\(method) \(path) \(type)")
            }
            // A body without any Content-Type is refused too; a bodyless POST needs none.
            let untyped = try RawHTTPConnection(port: port)
            try await untyped.sendHead(["POST /db/_bulk_docs HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Length: \(docs.count)",
                                        "Connection: close"] + server.auth.map { "\($0.key): \($0.value)" })
            try await untyped.send(docs)
            #expect(try await untyped.readReply().status == 415)
            #expect(try await server.client.send("POST", "/db/_ensure_full_commit", headers: server.auth).status == 201)
            #expect(try await server.client.send("GET", "/db/forged", headers: server.auth).status == 404)
            #expect(try await server.client.send("GET", "/db", headers: server.auth).json().objectValue?["doc_count"] == 0)

            // What CouchDB accepts still works: JSON with a charset, a multipart/related document, a login form.
            let typed = try await server.client.send(
                "POST", "/db/_bulk_docs", headers: server.auth.merging(["Content-Type": "application/json; charset=utf-8"]) { $1 }, body: docs)
            #expect(typed.status == 201)
            let boundary = "abc123"
            let related = Data((
                "--\(boundary)\r\nContent-Type: application/json\r\n\r\n"
                + #"{"_id":"withfile","_attachments":{"a.txt":{"follows":true,"content_type":"text/plain","length":5}}}"#
                + "\r\n--\(boundary)\r\n\r\nhello\r\n--\(boundary)--"
            ).utf8)
            let put = try await server.client.send(
                "PUT", "/db/withfile", headers: server.auth.merging(["Content-Type": "multipart/related; boundary=\"\(boundary)\""]) { $1 },
                body: related)
            #expect(put.status == 201)
            #expect(try await server.client.send("GET", "/db/withfile/a.txt", headers: server.auth).body == Data("hello".utf8))
            let login = try await server.client.send(
                "POST", "/_session", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("name=admin&password=password".utf8))
            #expect(login.status == 200)
        }
    }

    @Test("The session cookie is HttpOnly and SameSite=Lax, and Secure when a TLS proxy forwarded the login")
    func cookieAttributes() async throws {
        try await withServer(TestServer.start()) { server in
            let credentials: JSONValue = ["name": "admin", "password": "password"]
            let plain = try #require(try await server.client.send("POST", "/_session", json: credentials).header("Set-Cookie"))
            let attributes = Set(plain.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(attributes.contains("HttpOnly") && attributes.contains("SameSite=Lax"))
            #expect(!attributes.contains("Secure"))
            let proxied = try #require(try await server.client.send(
                "POST", "/_session", json: credentials, headers: ["X-Forwarded-Proto": "https"]).header("Set-Cookie"))
            #expect(proxied.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.contains("Secure"))
            let logout = try #require(try await server.client.send("DELETE", "/_session").header("Set-Cookie"))
            #expect(logout.contains("SameSite=Lax"))
        }
    }
}
