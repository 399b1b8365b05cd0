import Foundation
import NIOCore
package import NIOSSL
import Synchronization

/// A server's certificate chain and private key, read from their PEM files, checked, and
/// reloadable while the server runs.
///
/// ``reload()`` reads the files again; once they check out, every new connection's handshake
/// presents them, while connections already open keep the certificate they were made with,
/// so a renewed certificate needs no restart and drops no connection. A reload that fails
/// leaves the certificate in use as it was.
public final class ServerCertificate: Sendable {
    /// The files the certificate and key come from.
    public let files: TLSFiles
    private let current: Mutex<Identity>
    /// The identity the server's TLS context was made with: a handshake changes nothing
    /// until a reload has replaced it.
    private let initial: Identity

    /// One certificate chain with its key, as loaded at one time.
    struct Identity: Sendable {
        var chain: [NIOSSLCertificate]
        var key: NIOSSLPrivateKey
        /// Counts the loads, so a handshake can tell the initial identity from a reloaded one.
        var generation: Int
    }

    /// Reads and checks the two files.
    /// - Throws: ``ServerTLSError`` naming the file and the problem: missing, unreadable, not
    ///   PEM, or a key that is not the certificate's.
    public init(files: TLSFiles) throws(ServerTLSError) {
        self.files = files
        let identity = try Self.load(files, generation: 0)
        initial = identity
        current = Mutex(identity)
    }

    /// Reads the files again and, when they check out, presents them on every new
    /// connection. On failure the certificate in use stays.
    /// - Throws: ``ServerTLSError``, as ``init(files:)``.
    public func reload() throws(ServerTLSError) {
        let generation = current.withLock { $0.generation } + 1
        let identity = try Self.load(files, generation: generation)
        current.withLock { $0 = identity }
    }

    /// The serial number of the certificate presented now (hexadecimal), for messages and
    /// tests.
    public var serialNumber: String {
        let leaf = current.withLock { $0.chain[0] }
        return leaf.serialNumber.map { String(format: "%02x", $0) }.joined()
    }

    /// The server side's TLS configuration: the certificate and key as loaded, and a
    /// per-handshake callback that presents the reloaded ones once ``reload()`` has run.
    package var serverConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: initial.chain.map { .certificate($0) }, privateKey: .privateKey(initial.key))
        configuration.sslContextCallback = { [self] _, promise in
            let identity = current.withLock { $0 }
            guard identity.generation != 0 else {
                promise.succeed(.noChanges)
                return
            }
            var override = NIOSSLContextConfigurationOverride()
            override.certificateChain = identity.chain.map { .certificate($0) }
            override.privateKey = .privateKey(identity.key)
            promise.succeed(override)
        }
        return configuration
    }

    // MARK: - Loading

    private static func load(_ files: TLSFiles, generation: Int) throws(ServerTLSError) -> Identity {
        let chainBytes = try read(files.certificateChain, role: .certificate)
        let keyBytes = try read(files.privateKey, role: .privateKey)
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMBytes(chainBytes)
        } catch {
            throw .notPEM(path: files.certificateChain.path, role: .certificate, reason: "no certificate could be read from it")
        }
        guard !chain.isEmpty else {
            throw .notPEM(path: files.certificateChain.path, role: .certificate, reason: "it holds no certificate")
        }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(bytes: keyBytes, format: .pem)
        } catch {
            let encrypted = String(decoding: keyBytes, as: UTF8.self).contains("ENCRYPTED")
            throw .notPEM(path: files.privateKey.path, role: .privateKey,
                          reason: encrypted ? "the key is encrypted with a passphrase" : "no private key could be read from it")
        }
        // BoringSSL checks the key against the first certificate when a context takes both.
        do {
            _ = try NIOSSLContext(configuration: .makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)))
        } catch {
            throw .keyDoesNotMatch(certificate: files.certificateChain.path, key: files.privateKey.path)
        }
        return Identity(chain: chain, key: key, generation: generation)
    }

    /// The bytes of a PEM file, which must say it is PEM.
    private static func read(_ url: URL, role: ServerTLSError.Role) throws(ServerTLSError) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .missingFile(path: url.path, role: role)
        }
        if isDirectory.boolValue { throw .unreadableFile(path: url.path, role: role, reason: "it is a directory") }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let reason = FileManager.default.isReadableFile(atPath: url.path) ? "\(error.localizedDescription)" : "permission denied"
            throw .unreadableFile(path: url.path, role: role, reason: reason)
        }
        let bytes = [UInt8](data)
        guard String(decoding: bytes, as: UTF8.self).contains("-----BEGIN ") else {
            throw .notPEM(path: url.path, role: role, reason: bytes.isEmpty ? "the file is empty" : "no -----BEGIN line")
        }
        return bytes
    }
}
