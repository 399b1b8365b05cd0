import CouchServer
import DocumentFormat
import Foundation
import InteropSupport
import Testing
import TestSupport

/// Accounts of `_users` and per-database `_security`, as CouchDB 3 applies them, over real
/// HTTP: a member of one database gets 401/403 on another for every endpoint.
@Suite("CouchServer accounts and _security")
struct AccountAccessTests {
    /// The database requests a client can make, as (method, path, JSON body), on database
    /// `db` holding document `doc` with attachment `att`.
    static func endpoints(_ db: String) -> [(String, String, JSONValue?)] {
        [
            ("GET", "/\(db)", nil), ("HEAD", "/\(db)", nil), ("POST", "/\(db)", ["a": 1]),
            ("GET", "/\(db)/doc", nil), ("HEAD", "/\(db)/doc", nil), ("PUT", "/\(db)/doc2", ["a": 1]),
            ("DELETE", "/\(db)/doc?rev=1-x", nil),
            ("GET", "/\(db)/_all_docs", nil), ("POST", "/\(db)/_all_docs", ["keys": ["doc"]]),
            ("GET", "/\(db)/_changes", nil), ("POST", "/\(db)/_changes?filter=_doc_ids", ["doc_ids": ["doc"]]),
            ("POST", "/\(db)/_find", ["selector": [:]]),
            ("GET", "/\(db)/doc/att", nil), ("PUT", "/\(db)/doc/att2?rev=1-x", ["a": 1]),
            ("POST", "/\(db)/_bulk_get", ["docs": [["id": "doc"]]]), ("POST", "/\(db)/_revs_diff", ["doc": ["1-a"]]),
            ("POST", "/\(db)/_bulk_docs", ["docs": [["a": 1]]]),
            ("GET", "/\(db)/_local/cp", nil), ("PUT", "/\(db)/_local/cp", ["seq": 1]),
            ("GET", "/\(db)/_security", nil), ("PUT", "/\(db)/_security", ["members": ["names": ["alice"]]]),
            ("GET", "/\(db)/_design/d", nil), ("POST", "/\(db)/_index", ["index": ["fields": ["a"]]]),
        ]
    }

    static let alice = HTTPTestClient.basic("alice", "alice-pw")
    static let bob = HTTPTestClient.basic("bob", "bob-pw")

    /// A server with accounts alice (role `cook`) and bob, database `a` whose members are
    /// alice and database `b` whose members are bob; each holds `doc` with attachment `att`.
    static func serverWithTwoDatabases(anonymous: AnonymousAccess = .none) async throws -> TestServer {
        let server = try await TestServer.start(anonymous: anonymous) { $0.passwordIterations = 1000 }
        let client = server.client
        for (name, roles) in [("alice", ["cook"]), ("bob", [])] {
            let reply = try await client.send(
                "PUT", "/_users/org.couchdb.user:\(name)",
                json: ["name": .string(name), "password": .string("\(name)-pw"), "roles": .array(roles.map { .string($0) }), "type": "user"],
                headers: server.auth)
            #expect(reply.status == 201, "\(String(decoding: reply.body, as: UTF8.self))")
        }
        for (db, member) in [("a", "alice"), ("b", "bob")] {
            #expect(try await client.send("PUT", "/\(db)", headers: server.auth).status == 201)
            let doc = try await client.send(
                "PUT", "/\(db)/doc",
                json: ["a": 1, "_attachments": ["att": ["content_type": "text/plain", "data": "aGk="]]], headers: server.auth)
            #expect(doc.status == 201)
            let security = try await client.send(
                "PUT", "/\(db)/_security", json: ["members": ["names": [.string(member)], "roles": []], "admins": ["names": [], "roles": []]],
                headers: server.auth)
            #expect(security.status == 200)
            #expect(try security.json() == ["ok": true])
        }
        return server
    }

    static func send(_ server: TestServer, _ request: (String, String, JSONValue?), headers: [String: String]) async throws -> HTTPReply {
        if let json = request.2 { return try await server.client.send(request.0, request.1, json: json, headers: headers) }
        return try await server.client.send(request.0, request.1, headers: headers)
    }

    @Test("A member of database a gets 403 on database b for every endpoint, and no credentials get 401; b is unchanged")
    func memberOfAOnB() async throws {
        try await withServer(Self.serverWithTwoDatabases()) { (server: TestServer) async throws -> Void in
            let before = try await server.client.send("GET", "/b/_all_docs?include_docs=true", headers: server.auth).json()
            let securityBefore = try await server.client.send("GET", "/b/_security", headers: server.auth).json()
            for request in Self.endpoints("b") {
                let label = "\(request.0) \(request.1)"
                let reply = try await Self.send(server, request, headers: Self.alice)
                #expect(reply.status == 403, "\(label)")
                if request.0 != "HEAD" {
                    #expect(try reply.json() == ["error": "forbidden", "reason": "You are not allowed to access this db."], "\(label)")
                }
                let anonymous = try await Self.send(server, request, headers: [:])
                #expect(anonymous.status == 401, "\(label)")
                if request.0 != "HEAD" { #expect(try anonymous.json().objectValue?["error"] == "unauthorized", "\(label)") }
            }
            #expect(try await server.client.send("GET", "/b/_all_docs?include_docs=true", headers: server.auth).json() == before)
            #expect(try await server.client.send("GET", "/b/_security", headers: server.auth).json() == securityBefore)
            #expect(try await server.client.send("GET", "/b/_local/cp", headers: server.auth).status == 404)
        }
    }

    @Test("A member reads and writes its database but not its _security, design documents or indexes")
    func memberOnOwnDatabase() async throws {
        try await withServer(Self.serverWithTwoDatabases()) { (server: TestServer) async throws -> Void in
            let client = server.client
            #expect(try await client.send("GET", "/a/doc", headers: Self.alice).status == 200)
            #expect(try await client.send("GET", "/a/doc/att", headers: Self.alice).status == 200)
            #expect(try await client.send("GET", "/a/_all_docs", headers: Self.alice).status == 200)
            #expect(try await client.send("GET", "/a/_changes", headers: Self.alice).status == 200)
            #expect(try await client.send("POST", "/a/_find", json: ["selector": [:]], headers: Self.alice).status == 200)
            #expect(try await client.send("POST", "/a/_bulk_get", json: ["docs": [["id": "doc"]]], headers: Self.alice).status == 200)
            #expect(try await client.send("POST", "/a/_revs_diff", json: ["doc": ["1-a"]], headers: Self.alice).status == 200)
            #expect(try await client.send("PUT", "/a/new", json: ["b": 2], headers: Self.alice).status == 201)
            #expect(try await client.send("PUT", "/a/_local/cp", json: ["seq": 1], headers: Self.alice).status == 201)
            #expect(try await client.send("GET", "/a/_security", headers: Self.alice).json()
                == ["members": ["names": ["alice"], "roles": []], "admins": ["names": [], "roles": []]])

            let security = try await client.send("PUT", "/a/_security", json: [:], headers: Self.alice)
            #expect(security.status == 401)
            #expect(try security.json() == ["error": "unauthorized", "reason": "You are not a db or server admin."])
            let design = try await client.send("PUT", "/a/_design/d", json: [:], headers: Self.alice)
            #expect(design.status == 403)
            #expect(try design.json() == ["error": "forbidden", "reason": "You are not a db or server admin."])
            #expect(try await client.send("POST", "/a", json: ["_id": "_design/e"], headers: Self.alice).status == 403)
            #expect(try await client.send("POST", "/a/_bulk_docs", json: ["docs": [["_id": "_design/f"]]], headers: Self.alice).status == 403)
            #expect(try await client.send("POST", "/a/_index", json: ["index": ["fields": ["a"]]], headers: Self.alice).status == 403)
            #expect(try await client.send("GET", "/a/_design/d", headers: server.auth).status == 404)
            #expect(try await client.send("PUT", "/c", headers: Self.alice).status == 401)
            #expect(try await client.send("DELETE", "/a", headers: Self.alice).status == 401)
            // Purging forgets revisions for good: only admins may, as in CouchDB.
            let purge = try await client.send("POST", "/a/_purge", json: ["doc": ["1-a"]], headers: Self.alice)
            #expect(purge.status == 401)
            #expect(try purge.json() == ["error": "unauthorized", "reason": "You are not a db or server admin."])
            #expect(try await client.send("GET", "/a/doc", headers: Self.alice).status == 200)
            #expect(try await client.send("POST", "/a/_missing_revs", json: ["doc": ["1-a"]], headers: Self.alice).status == 200)
            // A copy onto a design document is a design-document write too.
            let copy = try await client.send("COPY", "/a/doc", headers: Self.alice.merging(["Destination": "_design/copied"]) { $1 })
            #expect(copy.status == 403)
            #expect(try await client.send("GET", "/a/_design/copied", headers: server.auth).status == 404)
            #expect(try await client.send("COPY", "/a/doc", headers: Self.alice.merging(["Destination": "copied"]) { $1 }).status == 201)
        }
    }

    @Test("A database admin by role changes _security and design documents; a role listed in members admits its users")
    func rolesAdmit() async throws {
        try await withServer(Self.serverWithTwoDatabases()) { (server: TestServer) async throws -> Void in
            let client = server.client
            #expect(try await client.send(
                "PUT", "/b/_security", json: ["admins": ["names": [], "roles": ["cook"]], "members": ["names": ["bob"], "roles": []]],
                headers: server.auth).status == 200)
            #expect(try await client.send("GET", "/b/doc", headers: Self.alice).status == 200)
            #expect(try await client.send("PUT", "/b/_design/d", json: ["language": "query"], headers: Self.alice).status == 201)
            #expect(try await client.send(
                "PUT", "/b/_security", json: ["members": ["names": ["bob"], "roles": ["cook"]]], headers: Self.alice).status == 200)
            #expect(try await client.send("GET", "/b/doc", headers: Self.alice).status == 200)
            #expect(try await client.send("PUT", "/b/_design/x", json: [:], headers: Self.alice).status == 403)
        }
    }

    @Test("A database without members follows the anonymous setting, for users as for requests without credentials")
    func noMembersFollowsAnonymousSetting() async throws {
        try await withServer(Self.serverWithTwoDatabases(anonymous: .reads)) { (server: TestServer) async throws -> Void in
            let client = server.client
            #expect(try await client.send("PUT", "/open", headers: server.auth).status == 201)
            #expect(try await client.send("GET", "/open", headers: Self.alice).status == 200)
            #expect(try await client.send("GET", "/open").status == 200)
            #expect(try await client.send("PUT", "/open/x", json: [:], headers: Self.alice).status == 403)
            #expect(try await client.send("PUT", "/open/x", json: [:]).status == 401)
            #expect(try await client.send("GET", "/b/doc").status == 401)
        }
        try await withServer(Self.serverWithTwoDatabases()) { (server: TestServer) async throws -> Void in
            #expect(try await server.client.send("PUT", "/open", headers: server.auth).status == 201)
            #expect(try await server.client.send("GET", "/open", headers: Self.alice).status == 403)
        }
    }

    @Test("Accounts log in with basic auth and POST /_session, with their roles; a wrong password gets 401")
    func accountsLogIn() async throws {
        try await withServer(Self.serverWithTwoDatabases()) { (server: TestServer) async throws -> Void in
            let client = server.client
            let session = try await client.send("GET", "/_session", headers: Self.alice).json()
            #expect(session.objectValue?["userCtx"] == ["name": "alice", "roles": ["cook"]])
            let wrong = try await client.send("GET", "/a", headers: HTTPTestClient.basic("alice", "nope"))
            #expect(wrong.status == 401)
            #expect(try wrong.json() == ["error": "unauthorized", "reason": "Name or password is incorrect."])

            let login = try await client.send("POST", "/_session", json: ["name": "alice", "password": "alice-pw"])
            #expect(login.status == 200)
            #expect(try login.json() == ["ok": true, "name": "alice", "roles": ["cook"]])
            let cookie = try #require(login.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
            #expect(try await client.send("GET", "/a/doc", headers: ["Cookie": cookie]).status == 200)
            #expect(try await client.send("GET", "/b/doc", headers: ["Cookie": cookie]).status == 403)
            #expect(try await client.send("GET", "/_session", headers: ["Cookie": cookie]).json().objectValue?["userCtx"]
                == ["name": "alice", "roles": ["cook"]])
            #expect(try await client.send("POST", "/_session", json: ["name": "alice", "password": "bob-pw"]).status == 401)

            // A deleted account's cookie stops working.
            let rev = try #require(try await client.send("GET", "/_users/org.couchdb.user:alice", headers: server.auth).json()
                .objectValue?["_rev"]?.stringValue)
            #expect(try await client.send("DELETE", "/_users/org.couchdb.user:alice?rev=\(rev)", headers: server.auth).status == 200)
            #expect(try await client.send("GET", "/a/doc", headers: ["Cookie": cookie]).status == 401)
            #expect(try await client.send("GET", "/a/doc", headers: Self.alice).status == 401)
        }
    }

    @Test("Users read and update only their own _users document; roles only the administrator changes")
    func ownDocumentOnly() async throws {
        try await withServer(Self.serverWithTwoDatabases()) { (server: TestServer) async throws -> Void in
            let client = server.client
            let own = try await client.send("GET", "/_users/org.couchdb.user:alice", headers: Self.alice)
            #expect(own.status == 200)
            var document = try #require(try own.json().objectValue)
            #expect(document["name"] == "alice" && document["roles"] == ["cook"])
            let other = try await client.send("GET", "/_users/org.couchdb.user:bob", headers: Self.alice)
            #expect(other.status == 403)
            #expect(try other.json().objectValue?["error"] == "forbidden")
            #expect(try await client.send("GET", "/_users/org.couchdb.user:bob").status == 401)
            #expect(try await client.send("GET", "/_users/_all_docs", headers: Self.alice).status == 403)
            #expect(try await client.send("GET", "/_users", headers: Self.alice).status == 403)
            #expect(try await client.send(
                "PUT", "/_users/org.couchdb.user:mallory",
                json: ["name": "mallory", "password": "x", "roles": [], "type": "user"], headers: Self.alice).status == 403)
            #expect(try await client.send(
                "PUT", "/_users/org.couchdb.user:mallory",
                json: ["name": "mallory", "password": "x", "roles": [], "type": "user"]).status == 401)

            // Updating without a password keeps it; a new role is refused.
            document["email"] = "alice@example.org"
            #expect(try await client.send("PUT", "/_users/org.couchdb.user:alice", json: .object(document), headers: Self.alice).status == 201)
            #expect(try await client.send("GET", "/a/doc", headers: Self.alice).status == 200)
            let current = try #require(try await client.send("GET", "/_users/org.couchdb.user:alice", headers: Self.alice).json().objectValue)
            #expect(current["email"] == "alice@example.org")
            var promoted = current
            promoted["roles"] = ["cook", "boss"]
            let refused = try await client.send("PUT", "/_users/org.couchdb.user:alice", json: .object(promoted), headers: Self.alice)
            #expect(refused.status == 403)
            #expect(try refused.json() == ["error": "forbidden", "reason": "Only _admin may edit roles"])

            // A new password replaces the old one.
            var changed = current
            changed["password"] = "alice-new"
            #expect(try await client.send("PUT", "/_users/org.couchdb.user:alice", json: .object(changed), headers: Self.alice).status == 201)
            #expect(try await client.send("GET", "/a/doc", headers: Self.alice).status == 401)
            #expect(try await client.send("GET", "/a/doc", headers: HTTPTestClient.basic("alice", "alice-new")).status == 200)
        }
    }

    @Test("No reply shows a password, its salt or its derived key")
    func hashNeverReplied() async throws {
        try await withServer(Self.serverWithTwoDatabases()) { (server: TestServer) async throws -> Void in
            let client = server.client
            var replies = [HTTPReply]()
            let created = try await client.send(
                "PUT", "/_users/org.couchdb.user:carol",
                json: ["name": "carol", "password": "carol-clear-pw", "roles": [], "type": "user"], headers: server.auth)
            #expect(created.status == 201)
            replies.append(created)
            let carol = HTTPTestClient.basic("carol", "carol-clear-pw")
            for headers in [server.auth, carol] {
                replies.append(try await client.send("GET", "/_users/org.couchdb.user:carol", headers: headers))
                replies.append(try await client.send("GET", "/_users/org.couchdb.user:carol?revs=true&open_revs=all", headers: headers))
                replies.append(try await client.send("GET", "/_session", headers: headers))
            }
            replies.append(try await client.send("POST", "/_session", json: ["name": "carol", "password": "carol-clear-pw"]))
            for path in ["/_users", "/_users/_all_docs", "/_users/_changes", "/_users/_all_docs?include_docs=true",
                         "/_users/_changes?include_docs=true", "/_users/org.couchdb.user:carol/att"] {
                replies.append(try await client.send("GET", path, headers: server.auth))
            }
            replies.append(try await client.send("POST", "/_users/_find", json: ["selector": [:]], headers: server.auth))
            replies.append(try await client.send("POST", "/_users/_bulk_get", json: ["docs": [["id": "org.couchdb.user:carol"]]], headers: server.auth))
            #expect(try await client.send("GET", "/_users/_all_docs?include_docs=true", headers: server.auth).status == 403)
            #expect(try await client.send("POST", "/_users/_find", json: ["selector": [:]], headers: server.auth).status == 403)
            for reply in replies {
                let text = String(decoding: reply.body, as: UTF8.self)
                for secret in ["carol-clear-pw", "derived_key", "\"salt\"", "\"password\"", "password_scheme", "iterations"] {
                    #expect(!text.contains(secret), "\(text)")
                }
            }
        }
    }

    @Test("Bad _users documents get CouchDB's 403 reasons and change nothing")
    func badUserDocuments() async throws {
        try await withServer(Self.serverWithTwoDatabases()) { (server: TestServer) async throws -> Void in
            for (id, body, reason) in Self.badUserDocuments {
                let reply = try await server.client.send("PUT", "/_users/\(id)", json: body, headers: server.auth)
                #expect(reply.status == 403, "\(body)")
                #expect(try reply.json() == ["error": "forbidden", "reason": .string(reason)], "\(body)")
                #expect(try await server.client.send("GET", "/_users/\(id)", headers: server.auth).status == 404)
            }
            #expect(try await server.client.send("POST", "/_users", json: ["name": "x"], headers: server.auth).status == 403)
        }
    }

    /// Bad `_users` writes with the reason CouchDB 3.4.3 gives (seen on the live server).
    static let badUserDocuments: [(String, JSONValue, String)] = [
        ("org.couchdb.user:carl", ["password": "b", "roles": [], "type": "user"], "doc.name is required"),
        ("org.couchdb.user:carl", ["name": "carl", "password": "b", "roles": ["_admin"], "type": "user"],
         "No system roles (starting with underscore) in users db."),
        ("org.couchdb.user:carl", ["name": "dave", "password": "b", "roles": [], "type": "user"],
         "Doc ID must be of the form org.couchdb.user:name"),
        ("org.couchdb.user:carl", ["name": "carl", "password": "b", "roles": []], "doc.type must be user"),
        ("org.couchdb.user:carl", ["name": "carl", "password": "b", "roles": "x", "type": "user"], "doc.roles must be an array"),
        ("carl", ["name": "carl", "password": "b", "roles": [], "type": "user"], "Doc ID must be of the form org.couchdb.user:name"),
    ]

    @Test("A _security object of the wrong shape gets 400 and changes nothing; GET and PUT of _security answer as CouchDB")
    func securityShapes() async throws {
        try await withServer(TestServer.start()) { (server: TestServer) async throws -> Void in
            let client = server.client
            #expect(try await client.send("PUT", "/db", headers: server.auth).status == 201)
            let empty = try await client.send("GET", "/db/_security", headers: server.auth)
            #expect(empty.status == 200)
            #expect(try empty.json() == [:])
            let valid: JSONValue = ["members": ["names": ["alice"], "roles": []], "admins": ["names": [], "roles": ["boss"]]]
            #expect(try await client.send("PUT", "/db/_security", json: valid, headers: server.auth).json() == ["ok": true])
            for bad: JSONValue in [[1], "x", ["members": []], ["members": ["names": "alice"]], ["admins": ["roles": [1]]],
                                   ["members": ["names": ["a", 2]]]] {
                let reply = try await client.send("PUT", "/db/_security", json: bad, headers: server.auth)
                #expect(reply.status == 400, "\(bad)")
                #expect(try reply.json().objectValue?["error"] == "bad_request", "\(bad)")
            }
            #expect(try await client.send("GET", "/db/_security", headers: server.auth).json() == valid)
            #expect(try await client.send("GET", "/db/_local/_security", headers: server.auth).status == 400)
            #expect(try await client.send("HEAD", "/_users", headers: server.auth).status == 200)
            #expect(try await client.send("GET", "/_users", headers: server.auth).json().objectValue?["db_name"] == "_users")
        }
    }
}
