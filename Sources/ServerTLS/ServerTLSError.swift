/// Why a server's certificate or key could not be used: each names the file and the fix, in
/// one line, so `recipes serve` and `recipes web` can refuse to start before they listen.
public enum ServerTLSError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which of the two files a problem is about.
    public enum Role: String, Sendable, Equatable {
        /// The certificate chain (`--tls-cert`).
        case certificate = "--tls-cert"
        /// The private key (`--tls-key`).
        case privateKey = "--tls-key"

        /// What the file should hold, for the fix.
        var expected: String {
            switch self {
            case .certificate: "the server's certificate chain in PEM (-----BEGIN CERTIFICATE-----)"
            case .privateKey: "the server's unencrypted private key in PEM (-----BEGIN PRIVATE KEY-----)"
            }
        }
    }

    /// The file does not exist.
    case missingFile(path: String, role: Role)
    /// The file exists but cannot be read (permissions, a directory).
    case unreadableFile(path: String, role: Role, reason: String)
    /// The file holds no usable PEM certificate or key.
    case notPEM(path: String, role: Role, reason: String)
    /// The key is not the key of the chain's first certificate.
    case keyDoesNotMatch(certificate: String, key: String)
    /// Only one of the two files was given.
    case incomplete(given: Role)

    /// One line naming the file, the problem and the fix.
    public var description: String {
        switch self {
        case .missingFile(let path, let role):
            "\(role.rawValue) \(path): no such file; give the path of \(role.expected)"
        case .unreadableFile(let path, let role, let reason):
            "\(role.rawValue) \(path): cannot be read (\(reason)); make it a file this user can read"
        case .notPEM(let path, let role, let reason):
            "\(role.rawValue) \(path): not PEM (\(reason)); it must hold \(role.expected)"
        case .keyDoesNotMatch(let certificate, let key):
            "--tls-key \(key): not the private key of the first certificate in --tls-cert \(certificate); give the key the certificate was made for"
        case .incomplete(let given):
            "\(given.rawValue) needs \(given == .certificate ? "--tls-key" : "--tls-cert") too: TLS takes the certificate chain and its private key"
        }
    }
}
