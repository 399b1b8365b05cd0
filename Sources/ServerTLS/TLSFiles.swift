public import Foundation

/// The PEM files a server's TLS is made of: the certificate chain it presents (its own
/// certificate first, then any intermediates) and the private key of its own certificate.
public struct TLSFiles: Sendable, Equatable {
    /// The certificate chain, PEM (`--tls-cert`).
    public var certificateChain: URL
    /// The private key, PEM, unencrypted (`--tls-key`).
    public var privateKey: URL

    /// Names the two files; nothing is read until ``ServerCertificate/init(files:)``.
    public init(certificateChain: URL, privateKey: URL) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
    }
}
