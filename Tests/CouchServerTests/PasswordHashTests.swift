@testable import CouchServer
import DocumentFormat
import Testing

/// The PBKDF2 hashes of `_users` documents, checked against hashes CouchDB 3.4.3 wrote.
@Suite("CouchServer password hashes")
struct PasswordHashTests {
    /// `PUT /_users/org.couchdb.user:alice` with password `wonder1` on a live CouchDB 3.4.3
    /// with its default settings, then the document as the administrator read it back.
    static let couchDefault: JSONObject = [
        "password_scheme": "pbkdf2", "pbkdf2_prf": "sha256", "salt": "50e374ef8d946cc1568f3edccdbad057",
        "iterations": 600000, "derived_key": "3743a4d9b8e17f8c915cbfcc06378e806d78d7a95eb303d99da1c95e0a365d50",
        "name": "alice", "roles": ["cook"], "type": "user",
    ]

    /// The same with `[chttpd_auth] pbkdf2_prf = sha` and `iterations = 10` (as CouchDB
    /// before 3.4 wrote them), password `p4ss w0rd`.
    static let couchSHA1: JSONObject = [
        "password_scheme": "pbkdf2", "pbkdf2_prf": "sha", "salt": "2ca545c9b7c4f7d71f27c2788c9e0d02",
        "iterations": 10, "derived_key": "924029209b5757010aff4b274bb70b9a3d608ff2",
        "name": "oldsha", "roles": [], "type": "user",
    ]

    @Test("A hash CouchDB 3.4.3 wrote (PBKDF2-SHA-256, 600,000 rounds) accepts its password and no other")
    func couchDefaultHash() throws {
        let hash = try #require(PasswordHash(document: Self.couchDefault))
        #expect(hash.verifies("wonder1"))
        #expect(!hash.verifies("wonder2"))
        #expect(!hash.verifies(""))
    }

    @Test("A PBKDF2-SHA-1 hash of an older CouchDB accepts its password and no other")
    func couchSHA1Hash() throws {
        let hash = try #require(PasswordHash(document: Self.couchSHA1))
        #expect(hash.verifies("p4ss w0rd"))
        #expect(!hash.verifies("p4ss w0rd "))
    }

    @Test("A hash this server makes has CouchDB's members and shape, and verifies")
    func madeHash() throws {
        let hash = try PasswordHash.make(password: "s3cret", iterations: 1000)
        #expect(hash.salt.count == 32 && hash.derivedKey.count == 64)
        let members = hash.members
        #expect(members["password_scheme"] == "pbkdf2" && members["pbkdf2_prf"] == "sha256" && members["iterations"] == 1000)
        let read = try #require(PasswordHash(document: members))
        #expect(read.verifies("s3cret") && !read.verifies("s3cret!"))
        #expect(try PasswordHash.make(password: "s3cret", iterations: 1000).salt != hash.salt)
    }

    @Test("Stored rounds outside 1…10,000,000, other schemes and missing members are refused, not run")
    func boundedRounds() {
        var document = Self.couchSHA1
        for bad: JSONValue in [0, -5, 10_000_001, .int(Int64.max), "10", 1.5] {
            document["iterations"] = bad
            #expect(PasswordHash(document: document) == nil, "\(bad)")
        }
        document = Self.couchSHA1
        document["password_scheme"] = "simple"
        #expect(PasswordHash(document: document) == nil)
        document = Self.couchSHA1
        document["pbkdf2_prf"] = "md5"
        #expect(PasswordHash(document: document) == nil)
        document = Self.couchSHA1
        document.removeValue(forKey: "salt")
        #expect(PasswordHash(document: document) == nil)
    }
}
