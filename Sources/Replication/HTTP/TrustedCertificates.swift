public import Foundation
import NIOSSL

/// Certificate authorities a client trusts besides the system's roots: the household CA
/// that signed a `recipes serve` certificate, or a company's own. They add to the system's
/// roots and never replace them, and nothing here turns verification off.
public struct TrustedCertificates: Sendable {
    /// The PEM files the certificates came from, as given.
    public let files: [URL]
    /// The certificates, read once when the files were named.
    let certificates: [NIOSSLCertificate]

    /// Reads every certificate in each PEM file.
    /// - Throws: ``TrustedCertificatesError`` naming the file that is missing, unreadable or
    ///   holds no PEM certificate.
    public init(pemFiles: [URL]) throws(TrustedCertificatesError) {
        var certificates: [NIOSSLCertificate] = []
        for file in pemFiles {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else {
                throw .missingFile(path: file.path)
            }
            let data: Data
            do {
                if isDirectory.boolValue { throw CocoaError(.fileReadUnknown) }
                data = try Data(contentsOf: file)
            } catch {
                throw .unreadableFile(path: file.path, reason: isDirectory.boolValue ? "it is a directory" : "permission denied or not a file")
            }
            let bytes = [UInt8](data)
            guard String(decoding: bytes, as: UTF8.self).contains("-----BEGIN CERTIFICATE-----"),
                  let read = try? NIOSSLCertificate.fromPEMBytes(bytes), !read.isEmpty
            else {
                throw .notPEM(path: file.path)
            }
            certificates += read
        }
        self.files = pemFiles
        self.certificates = certificates
    }
}

/// Why a CA file (`--ca-file`, `RECIPES_CA_FILE`, `"caFile"`) could not be used.
public enum TrustedCertificatesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not exist.
    case missingFile(path: String)
    /// The file cannot be read.
    case unreadableFile(path: String, reason: String)
    /// The file holds no PEM certificate.
    case notPEM(path: String)

    /// One line naming the file, the problem and the fix.
    public var description: String {
        switch self {
        case .missingFile(let path):
            "CA file \(path): no such file; give the PEM certificate of the CA that signed the server's certificate"
        case .unreadableFile(let path, let reason):
            "CA file \(path): cannot be read (\(reason)); make it a file this user can read"
        case .notPEM(let path):
            "CA file \(path): holds no PEM certificate (-----BEGIN CERTIFICATE-----); give the CA's certificate, not its key"
        }
    }
}
