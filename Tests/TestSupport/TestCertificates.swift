public import Foundation

/// A household certificate authority and certificates it signs, made at test time with the
/// `openssl` program in a folder of the test's own: nothing private is committed, and every
/// run has fresh keys.
///
/// Keys are P-256 (fast to make); certificates live 30 days.
public struct TestCertificates: Sendable {
    /// The folder the files are in.
    public let folder: URL
    /// The CA's certificate (PEM): what a client is told to trust.
    public var caCertificate: URL { folder.appendingPathComponent("ca.pem") }

    /// The `openssl` program, or `nil` when it is not installed.
    public static var openssl: String? {
        for directory in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: directory + "/openssl") {
            return directory + "/openssl"
        }
        return nil
    }

    /// Makes a CA named `name` in `folder` (created if missing).
    public static func makeAuthority(in folder: URL, name: String = "Recipes Test Household CA") async throws -> TestCertificates {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let authority = TestCertificates(folder: folder)
        try await authority.run(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                                 "-keyout", authority.file("ca.key").path, "-out", authority.caCertificate.path, "-days", "30",
                                 "-subj", "/CN=\(name)",
                                 "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        return authority
    }

    /// A server certificate signed by this CA for `names` (IP addresses and DNS names), with
    /// serial number `serial`; returns the certificate's and its key's files, named
    /// `label.pem` and `label.key`.
    @discardableResult
    public func issue(_ label: String, for names: [String] = ["127.0.0.1", "localhost"], serial: Int = 1) async throws
        -> (certificate: URL, key: URL) {
        let key = file("\(label).key")
        let request = file("\(label).csr")
        let certificate = file("\(label).pem")
        let extensions = file("\(label).ext")
        let alternativeNames = names.map { name in
            name.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" } ? "IP:\(name)" : "DNS:\(name)"
        }.joined(separator: ",")
        try Data("""
            subjectAltName=\(alternativeNames)
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth

            """.utf8).write(to: extensions)
        try await run(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                       "-keyout", key.path, "-out", request.path, "-subj", "/CN=\(names.first ?? label)"])
        try await run(["x509", "-req", "-in", request.path, "-CA", caCertificate.path, "-CAkey", file("ca.key").path,
                       "-set_serial", String(serial), "-days", "30", "-extfile", extensions.path, "-out", certificate.path])
        return (certificate, key)
    }

    /// The base64 SHA-256 digest of the CA's public key (its SubjectPublicKeyInfo), as
    /// Chromium's `--ignore-certificate-errors-spki-list` takes it: a headless Chromium
    /// without a certificate database of its own trusts a chain that carries this key.
    public func caPublicKeyDigest() async throws -> String {
        try await run(["x509", "-in", caCertificate.path, "-pubkey", "-noout", "-out", file("ca.pub").path])
        try await run(["pkey", "-pubin", "-in", file("ca.pub").path, "-outform", "DER", "-out", file("ca.spki").path])
        try await run(["dgst", "-sha256", "-binary", "-out", file("ca.spki.sha256").path, file("ca.spki").path])
        return try Data(contentsOf: file("ca.spki.sha256")).base64EncodedString()
    }

    /// A chain file for `label`: its certificate followed by the CA's, as a server sends
    /// when clients know only the CA's key.
    public func chain(_ label: String) throws -> URL {
        let chain = file("\(label)-chain.pem")
        try (Data(contentsOf: file("\(label).pem")) + Data(contentsOf: caCertificate)).write(to: chain)
        return chain
    }

    /// A file in the folder.
    public func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    private func run(_ arguments: [String]) async throws {
        guard let openssl = Self.openssl else { throw ChildProcessError(commandLine: "openssl", detail: "not installed") }
        let log = file("openssl.log")
        let child = try await ChildProcess.start(openssl, arguments, standardOutput: log.path, standardError: log.path)
        let termination = try await child.wait()
        guard termination == .exited(0) else {
            let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw ChildProcessError(commandLine: child.commandLine, detail: "\(termination): \(output)")
        }
    }
}
