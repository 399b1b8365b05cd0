import DocumentStore
import Foundation
import InteropSupport
import Testing
import TestSupport
import DocumentFormat

/// CouchDB 3's own replicator (`POST /_replicate` on a live CouchDB) pulling from and pushing
/// to a real `recipes serve` process, over real HTTP: every document, leaf revision, body and
/// attachment byte arrives, and a second replication finds its checkpoints and moves nothing.
@Suite("CouchDB's replicator against recipes serve", .serialized,
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to run its replicator against recipes serve"))
struct CouchReplicatorInteropTests {
    /// A `recipes serve` holding the sample recipes (with their images, pushed by `recipes
    /// sync`) and the hard cases of ``InteropDocuments`` in database `recipes`.
    static func filledServer(_ sandbox: Sandbox) async throws -> (ServedDatabase, HTTPTestClient, [String: String]) {
        let served = try await ServedDatabase(in: sandbox)
        let seeded = try await sandbox.run(["list", "--json", "--store", sandbox.path("a.sqlite"), "--remote", served.url()])
        #expect(seeded.status == 0, "\(seeded)")
        let client = HTTPTestClient(port: served.port)
        let auth = HTTPTestClient.basic(ServedDatabase.user, ServedDatabase.password)
        try await InteropDocuments.write(into: "recipes", client: client, auth: auth)
        return (served, client, auth)
    }

    /// Expects two snapshots to be equal, listing what differs.
    static func expectSame(_ ours: DatabaseSnapshot, _ theirs: DatabaseSnapshot, sourceLocation: SourceLocation = #_sourceLocation) {
        let differences = ours.differences(from: theirs)
        #expect(differences.isEmpty, "\(differences.prefix(20).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    /// The number of documents the replicator says it wrote, from its reply's newest history entry.
    static func docsWritten(_ reply: JSONObject) -> Int64? {
        reply["history"]?.arrayValue?.first?.objectValue?["docs_written"]?.intValue
    }

    @Test("CouchDB's replicator pulls every revision and attachment from recipes serve; a second run moves nothing")
    func couchPullsFromServe() async throws {
        let couch = try await LiveCouchDB.connect()
        let sandbox = try Sandbox("couch-pull")
        let (served, client, auth) = try await Self.filledServer(sandbox)
        try await couch.withDatabase("pull") { target in
            let first = try await couch.replicate(from: served.url(), to: couch.databaseURL(target))
            let ours = try await DatabaseSnapshot.read("recipes", client: client, auth: auth)
            let theirs = try await DatabaseSnapshot.read(target, client: couch.client, auth: couch.auth)
            Self.expectSame(ours, theirs)
            #expect(ours.leaves.count > 60 && ours.attachments.count >= 16, "\(ours)")
            #expect(Self.docsWritten(first) ?? 0 > 0, "\(first)")

            let second = try await couch.replicate(from: served.url(), to: couch.databaseURL(target))
            #expect(second["no_changes"] == true || Self.docsWritten(second) == 0, "\(second)")
            Self.expectSame(ours, try await DatabaseSnapshot.read(target, client: couch.client, auth: couch.auth))
        }
    }

    @Test("CouchDB's replicator pulls from recipes serve over https, trusting the household CA it is told, and refuses without it",
          .enabled(if: TestCertificates.openssl != nil, "needs the openssl program to make test certificates"))
    func couchPullsFromServeOverHTTPS() async throws {
        let couch = try await LiveCouchDB.connect()
        let sandbox = try Sandbox("couch-https")
        let authority = try await TestCertificates.makeAuthority(in: sandbox.root.appendingPathComponent("tls"))
        let (certificate, key) = try await authority.issue("server")
        let stranger = try await TestCertificates.makeAuthority(in: sandbox.root.appendingPathComponent("other-tls"))
        try await withServer(ServedDatabase(in: sandbox, arguments: ["--tls-cert", certificate.path, "--tls-key", key.path])) { served in
            let probe = try HTTPSProbe(trusting: [authority.caCertificate])
            let headers = [("Authorization", ServedDatabase.authorization), ("Content-Type", "application/json")]
            #expect(try await probe.send("PUT", served.baseURL + "/secure", headers: headers).status == 201)
            for n in 0..<20 {
                let body = #"{"n": \#(n), "_attachments": {"a.txt": {"content_type": "text/plain", "data": "aGVsbG8="}}}"#
                #expect(try await probe.send("PUT", served.baseURL + "/secure/doc-\(n)", headers: headers, body: body).status == 201)
            }
            // By name: Erlang's hostname check does not match an IP address against the
            // certificate's IP entries, so CouchDB is given the name the certificate also holds.
            let source = "https://\(ServedDatabase.user):\(ServedDatabase.password)@localhost:\(served.port)/secure"
            // CouchDB reads its replicator's TLS settings when a job starts; they are put back after.
            func configure(_ key: String, _ value: String) async throws -> String? {
                let reply = try await couch.send("PUT", "/_node/_local/_config/replicator/\(key)", json: .string(value))
                #expect(reply.status == 200, "\(reply)")
                return try? reply.json().stringValue
            }
            let oldVerify = try await configure("verify_ssl_certificates", "true")
            let oldFile = try await configure("ssl_trusted_certificates_file", stranger.caCertificate.path)
            do {
                // Refused first: CouchDB keeps connections it opened to a host for later jobs.
                try await couch.withDatabase("https-refused") { target in
                    await #expect(throws: LiveCouchDBError.self) { _ = try await couch.replicate(from: source, to: couch.databaseURL(target)) }
                }
                _ = try await configure("ssl_trusted_certificates_file", authority.caCertificate.path)
                try await couch.withDatabase("https-pull") { target in
                    _ = try await couch.replicate(from: source, to: couch.databaseURL(target))
                    let copied = try await couch.send("GET", "/\(target)/doc-7?attachments=true", headers: ["Accept": "application/json"])
                    #expect(copied.status == 200, "\(copied)")
                    #expect(String(decoding: copied.body, as: UTF8.self).contains("aGVsbG8="))
                    let info = try await couch.send("GET", "/\(target)")
                    #expect(try info.json().objectValue?["doc_count"]?.intValue == 20, "\(info)")
                }
            } catch {
                _ = try? await configure("verify_ssl_certificates", oldVerify ?? "false")
                _ = try? await configure("ssl_trusted_certificates_file", oldFile ?? "")
                throw error
            }
            _ = try await configure("verify_ssl_certificates", oldVerify ?? "false")
            _ = try await configure("ssl_trusted_certificates_file", oldFile ?? "")
        }
    }

    @Test("CouchDB's replicator pushes every revision and attachment to recipes serve; a second run moves nothing")
    func couchPushesToServe() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("push") { source in
            try await InteropDocuments.write(into: source, client: couch.client, auth: couch.auth)
            let sandbox = try Sandbox("couch-push")
            try await withServer(ServedDatabase(in: sandbox)) { served in
                let client = HTTPTestClient(port: served.port)
                let auth = HTTPTestClient.basic(ServedDatabase.user, ServedDatabase.password)

                let first = try await couch.replicate(from: couch.databaseURL(source), to: served.url("pushed"), extra: ["create_target": true])
                let theirs = try await DatabaseSnapshot.read(source, client: couch.client, auth: couch.auth)
                let ours = try await DatabaseSnapshot.read("pushed", client: client, auth: auth)
                Self.expectSame(theirs, ours)
                #expect(theirs.leaves.count == InteropDocuments.ids.count, "\(theirs)")
                #expect(Self.docsWritten(first) ?? 0 > 0, "\(first)")

                let second = try await couch.replicate(from: couch.databaseURL(source), to: served.url("pushed"))
                #expect(second["no_changes"] == true || Self.docsWritten(second) == 0, "\(second)")

                // What CouchDB pushed reads back through our own client: a store synced from the
                // server shows the same documents and leaves.
                let synced = try await sandbox.run(["sync", "--pull-only", "--json", "--no-samples", "--store", sandbox.path("b.sqlite"), "--remote", served.url("pushed")])
                #expect(synced.status == 0, "\(synced)")
            }
        }
    }
}
