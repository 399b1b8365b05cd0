import Foundation
import ServerTLS
import TestSupport
import Testing

/// Reading a server's certificate chain and key: what is refused before anything listens,
/// each with one line naming the file, and reloading.
@Suite(.enabled(if: TestCertificates.openssl != nil, "needs the openssl program to make test certificates"))
struct ServerCertificateTests {
    @Test func loadsAChainAndItsKey() async throws {
        let folder = try TemporaryDirectory("tls-load")
        let authority = try await TestCertificates.makeAuthority(in: folder.url)
        let (certificate, key) = try await authority.issue("server", serial: 0x1234)
        let loaded = try ServerCertificate(files: TLSFiles(certificateChain: certificate, privateKey: key))
        #expect(loaded.serialNumber == "1234")
    }

    @Test func refusesAMissingFile() async throws {
        let folder = try TemporaryDirectory("tls-missing")
        let authority = try await TestCertificates.makeAuthority(in: folder.url)
        let (certificate, key) = try await authority.issue("server")
        let missing = folder.file("nowhere.pem")
        let error = #expect(throws: ServerTLSError.self) {
            try ServerCertificate(files: TLSFiles(certificateChain: missing, privateKey: key))
        }
        #expect(error == .missingFile(path: missing.path, role: .certificate))
        #expect(error?.description.contains(missing.path) == true)
        #expect(error?.description.contains("\n") == false)
        #expect(throws: ServerTLSError.missingFile(path: folder.file("no.key").path, role: .privateKey)) {
            try ServerCertificate(files: TLSFiles(certificateChain: certificate, privateKey: folder.file("no.key")))
        }
    }

    @Test func refusesAFileThatIsNotPEM() async throws {
        let folder = try TemporaryDirectory("tls-not-pem")
        let authority = try await TestCertificates.makeAuthority(in: folder.url)
        let (certificate, key) = try await authority.issue("server")
        let garbage = try folder.write("garbage.pem", "this is not a certificate\n")
        let error = #expect(throws: ServerTLSError.self) {
            try ServerCertificate(files: TLSFiles(certificateChain: garbage, privateKey: key))
        }
        guard case .notPEM(let path, .certificate, _)? = error else {
            Issue.record("expected notPEM for the certificate, got \(String(describing: error))")
            return
        }
        #expect(path == garbage.path)
        // A key file that holds a certificate instead.
        let keyError = #expect(throws: ServerTLSError.self) {
            try ServerCertificate(files: TLSFiles(certificateChain: certificate, privateKey: certificate))
        }
        guard case .notPEM(certificate.path, .privateKey, _)? = keyError else {
            Issue.record("expected notPEM for the key, got \(String(describing: keyError))")
            return
        }
        // An empty file.
        let empty = try folder.write("empty.pem", "")
        #expect(throws: ServerTLSError.notPEM(path: empty.path, role: .certificate, reason: "the file is empty")) {
            try ServerCertificate(files: TLSFiles(certificateChain: empty, privateKey: key))
        }
    }

    @Test func refusesAKeyOfAnotherCertificate() async throws {
        let folder = try TemporaryDirectory("tls-mismatch")
        let authority = try await TestCertificates.makeAuthority(in: folder.url)
        let (certificate, _) = try await authority.issue("server")
        let (_, otherKey) = try await authority.issue("other", serial: 2)
        #expect(throws: ServerTLSError.keyDoesNotMatch(certificate: certificate.path, key: otherKey.path)) {
            try ServerCertificate(files: TLSFiles(certificateChain: certificate, privateKey: otherKey))
        }
    }

    @Test(.enabled(if: getuid() != 0, "root reads every file"))
    func refusesAnUnreadableFile() async throws {
        let folder = try TemporaryDirectory("tls-unreadable")
        let authority = try await TestCertificates.makeAuthority(in: folder.url)
        let (certificate, key) = try await authority.issue("server")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: key.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: key.path) }
        let error = #expect(throws: ServerTLSError.self) {
            try ServerCertificate(files: TLSFiles(certificateChain: certificate, privateKey: key))
        }
        guard case .unreadableFile(key.path, .privateKey, _)? = error else {
            Issue.record("expected unreadableFile for the key, got \(String(describing: error))")
            return
        }
    }

    @Test func aReloadPresentsTheNewFilesAndAFailedOneKeepsTheOld() async throws {
        let folder = try TemporaryDirectory("tls-reload")
        let authority = try await TestCertificates.makeAuthority(in: folder.url)
        let (certificate, key) = try await authority.issue("server", serial: 1)
        let loaded = try ServerCertificate(files: TLSFiles(certificateChain: certificate, privateKey: key))
        #expect(loaded.serialNumber == "01")
        try await authority.issue("server", serial: 2)
        try loaded.reload()
        #expect(loaded.serialNumber == "02")
        try Data("broken".utf8).write(to: certificate)
        #expect(throws: ServerTLSError.self) { try loaded.reload() }
        #expect(loaded.serialNumber == "02")
    }
}
