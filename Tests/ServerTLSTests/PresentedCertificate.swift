import Foundation
import NIOSSL
import TestSupport

/// The certificate a server presents to a new connection, as `openssl s_client` (a real
/// client of its own) receives it, whether or not it is trusted.
enum PresentedCertificate {
    /// The serial number (hexadecimal) of the certificate `127.0.0.1:port` presents now.
    static func serialNumber(port: Int, folder: URL) async throws -> String {
        guard let openssl = TestCertificates.openssl else { throw RawConnectionError(message: "openssl is not installed") }
        let output = folder.appendingPathComponent("s_client-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: output) }
        let child = try await ChildProcess.start(openssl, ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", "localhost"],
                                                 standardOutput: output.path, standardError: nil)
        if try await child.wait(timeout: .seconds(30)) == nil { _ = try await child.stop(SIGKILL) }
        let text = try String(contentsOf: output, encoding: .utf8)
        guard let start = text.range(of: "-----BEGIN CERTIFICATE-----"),
              let end = text.range(of: "-----END CERTIFICATE-----", range: start.upperBound..<text.endIndex)
        else { throw RawConnectionError(message: "openssl s_client got no certificate: \(text)") }
        let certificate = try NIOSSLCertificate(bytes: Array(text[start.lowerBound..<end.upperBound].utf8), format: .pem)
        return certificate.serialNumber.map { String(format: "%02x", $0) }.joined()
    }
}
