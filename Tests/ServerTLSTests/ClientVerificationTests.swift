import Foundation
import InteropSupport
import Replication
import ServerTLS
import TestSupport
import Testing

/// The replication client against an `https://` server: it trusts the system's roots plus
/// the CA files it is given, and a certificate it cannot trust fails the request at once
/// with one line naming the host and the reason, never falling back to anything else.
@Suite(.enabled(if: TestCertificates.openssl != nil, "needs the openssl program to make test certificates"))
struct ClientVerificationTests {
    @Test func trustsTheCAItIsGiven() async throws {
        let folder = try TemporaryDirectory("tls-client-trust")
        let authority = try await TestCertificates.makeAuthority(in: folder.url)
        let (certificate, key) = try await authority.issue("server")
        try await withServer(TLSTestServer.start(TLSFiles(certificateChain: certificate, privateKey: key))) { server in
            var options = CouchClientOptions()
            options.trustedCertificates = try TrustedCertificates(pemFiles: [authority.caCertificate])
            let database = try CouchDatabase(url: server.url("/recipes", credentials: true), options: options)
            try await database.createDatabase()
            #expect(try await database.databaseInfo().documentCount == 0)
        }
    }

    @Test func refusesACertificateNoTrustedCASigned() async throws {
        let folder = try TemporaryDirectory("tls-client-untrusted")
        let authority = try await TestCertificates.makeAuthority(in: folder.file("ours"))
        let stranger = try await TestCertificates.makeAuthority(in: folder.file("stranger"), name: "Stranger CA")
        let (certificate, key) = try await authority.issue("server")
        try await withServer(TLSTestServer.start(TLSFiles(certificateChain: certificate, privateKey: key))) { server in
            for trusted in [nil, stranger.caCertificate] {
                var options = CouchClientOptions()
                options.maxRetries = 3
                options.trustedCertificates = try trusted.map { try TrustedCertificates(pemFiles: [$0]) }
                let database = try CouchDatabase(url: server.url("/recipes", credentials: true), options: options)
                let started = ContinuousClock.now
                let error = await #expect(throws: ReplicationError.self) { try await database.createDatabase() }
                guard case .untrustedCertificate(_, let host, let reason)? = error else {
                    Issue.record("expected untrustedCertificate, got \(String(describing: error))")
                    continue
                }
                #expect(host == "127.0.0.1")
                #expect(reason.contains("not signed by a CA this machine trusts"))
                let message = error?.description ?? ""
                #expect(message.hasPrefix("127.0.0.1: "))
                #expect(message.contains("--ca-file"))
                #expect(!message.contains("\n"))
                #expect(!message.contains(TLSTestServer.password))
                // Not retried: the same certificate fails the same way every time.
                #expect(ContinuousClock.now - started < .seconds(5))
            }
        }
    }

    @Test func refusesACertificateIssuedForAnotherName() async throws {
        let folder = try TemporaryDirectory("tls-client-name")
        let authority = try await TestCertificates.makeAuthority(in: folder.url)
        let (certificate, key) = try await authority.issue("elsewhere", for: ["elsewhere.example"])
        try await withServer(TLSTestServer.start(TLSFiles(certificateChain: certificate, privateKey: key))) { server in
            var options = CouchClientOptions()
            options.trustedCertificates = try TrustedCertificates(pemFiles: [authority.caCertificate])
            let database = try CouchDatabase(url: server.url("/recipes", credentials: true), options: options)
            let error = await #expect(throws: ReplicationError.self) { try await database.createDatabase() }
            guard case .untrustedCertificate(_, "127.0.0.1", let reason)? = error else {
                Issue.record("expected untrustedCertificate for 127.0.0.1, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("issued for another name"))
        }
    }

    @Test func refusesABadCAFileWithOneLineNamingIt() async throws {
        let folder = try TemporaryDirectory("tls-client-ca-file")
        let missing = folder.file("missing.pem")
        #expect(throws: TrustedCertificatesError.missingFile(path: missing.path)) {
            try TrustedCertificates(pemFiles: [missing])
        }
        let garbage = try folder.write("garbage.pem", "no certificate here")
        let error = #expect(throws: TrustedCertificatesError.notPEM(path: garbage.path)) {
            try TrustedCertificates(pemFiles: [garbage])
        }
        #expect(error?.description.contains(garbage.path) == true)
    }
}
