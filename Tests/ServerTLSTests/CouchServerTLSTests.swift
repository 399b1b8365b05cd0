import CouchServer
import InteropSupport
import Foundation
import ServerTLS
import TestSupport
import Testing

/// `CouchServer` over HTTPS on 127.0.0.1: served with the certificate, `Secure` cookies,
/// clients that speak no TLS turned away while the server keeps serving, and a reload that
/// keeps open connections and presents the new certificate to new ones.
@Suite(.enabled(if: TestCertificates.openssl != nil, "needs the openssl program to make test certificates"))
struct CouchServerTLSTests {
    @Test func servesHTTPSWithSecureSessionCookies() async throws {
        let folder = try TemporaryDirectory("tls-serve")
        let authority = try await TestCertificates.makeAuthority(in: folder.url)
        let (certificate, key) = try await authority.issue("server")
        try await withServer(TLSTestServer.start(TLSFiles(certificateChain: certificate, privateKey: key))) { server in
            let client = try HTTPSProbe(trusting: [authority.caCertificate])
            let welcome = try await client.send("GET", server.url("/"))
            #expect(welcome.status == 200)
            #expect(welcome.body.contains("couchdb"))
            // By name as well as by address: the certificate names both.
            #expect(try await client.send("GET", server.url("/_up", host: "localhost")).status == 200)
            let login = try await client.send("POST", server.url("/_session"), headers: [("Content-Type", "application/json")],
                                              body: #"{"name": "\#(TLSTestServer.user)", "password": "\#(TLSTestServer.password)"}"#)
            #expect(login.status == 200)
            let cookie = login.header("Set-Cookie").first ?? ""
            #expect(cookie.hasPrefix("AuthSession="))
            #expect(cookie.hasSuffix("; Secure"))
        }
    }

    @Test func aClientSpeakingPlainHTTPOrGarbageIsClosedAndTheServerKeepsServing() async throws {
        let folder = try TemporaryDirectory("tls-garbage")
        let authority = try await TestCertificates.makeAuthority(in: folder.url)
        let (certificate, key) = try await authority.issue("server")
        try await withServer(TLSTestServer.start(TLSFiles(certificateChain: certificate, privateKey: key))) { server in
            let plain = try await RawConnection.send(Array("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), port: server.port)
            guard case .closed = plain else {
                Issue.record("a plain HTTP request left the connection \(plain)")
                return
            }
            var generator = SeededGenerator(seed: 45)
            let garbage = (0..<2048).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let noise = try await RawConnection.send(garbage, port: server.port)
            guard case .closed = noise else {
                Issue.record("garbage left the connection \(noise)")
                return
            }
            // A TLS record header that announces a handshake, then nonsense.
            let fakeHello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x10] + Array(repeating: 0xff, count: 16)
            #expect(try await RawConnection.send(fakeHello, port: server.port) != .stillOpen)
            let client = try HTTPSProbe(trusting: [authority.caCertificate])
            let reply = try await client.send("GET", server.url("/_all_dbs"), headers: [TLSTestServer.authorization])
            #expect(reply.status == 200)
        }
    }

    @Test func aReloadKeepsOpenConnectionsAndPresentsTheNewCertificateToNewOnes() async throws {
        let folder = try TemporaryDirectory("tls-reload-server")
        let first = try await TestCertificates.makeAuthority(in: folder.file("first"), name: "First Test CA")
        let second = try await TestCertificates.makeAuthority(in: folder.file("second"), name: "Second Test CA")
        let (certificate, key) = try await first.issue("server", serial: 1)
        try await withServer(TLSTestServer.start(TLSFiles(certificateChain: certificate, privateKey: key))) { server in
            // A client trusting only the first CA opens its one connection.
            let early = try HTTPSProbe(trusting: [first.caCertificate])
            #expect(try await early.send("GET", server.url("/_up")).status == 200)
            #expect(try await PresentedCertificate.serialNumber(port: server.port, folder: folder.url) == "01")

            // The renewed certificate comes from another CA, so a connection opened after
            // the reload cannot verify under the first CA alone.
            let (renewed, renewedKey) = try await second.issue("server", serial: 2)
            try FileManager.default.removeItem(at: certificate)
            try FileManager.default.removeItem(at: key)
            try FileManager.default.copyItem(at: renewed, to: certificate)
            try FileManager.default.copyItem(at: renewedKey, to: key)
            try server.server.reloadCertificate()

            #expect(try await PresentedCertificate.serialNumber(port: server.port, folder: folder.url) == "02")
            // The connection opened before the reload still works: it was not dropped.
            #expect(try await early.send("GET", server.url("/_up")).status == 200)
            // New connections get the new certificate.
            let late = try HTTPSProbe(trusting: [second.caCertificate])
            #expect(try await late.send("GET", server.url("/_up")).status == 200)
            await #expect(throws: (any Error).self) {
                _ = try await HTTPSProbe(trusting: [first.caCertificate]).send("GET", server.url("/_up"))
            }
        }
    }

    @Test func aReloadOfBrokenFilesFailsAndTheServerKeepsItsCertificate() async throws {
        let folder = try TemporaryDirectory("tls-reload-broken")
        let authority = try await TestCertificates.makeAuthority(in: folder.url)
        let (certificate, key) = try await authority.issue("server", serial: 7)
        try await withServer(TLSTestServer.start(TLSFiles(certificateChain: certificate, privateKey: key))) { server in
            try Data("not pem".utf8).write(to: key)
            #expect(throws: ServerTLSError.self) { try server.server.reloadCertificate() }
            #expect(try await PresentedCertificate.serialNumber(port: server.port, folder: folder.url) == "07")
            let client = try HTTPSProbe(trusting: [authority.caCertificate])
            #expect(try await client.send("GET", server.url("/_up")).status == 200)
        }
    }
}
