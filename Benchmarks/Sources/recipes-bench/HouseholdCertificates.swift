import ArgumentParser
import Foundation

/// A certificate authority and a certificate for 127.0.0.1 it signed, made with the `openssl`
/// program in a folder of the run, for benchmarks over HTTPS.
struct HouseholdCertificates {
    /// The CA's certificate, which the client trusts.
    let caCertificate: URL
    /// The server's certificate.
    let certificate: URL
    /// The server's private key.
    let key: URL

    /// Makes them in `folder`.
    static func make(in folder: URL) throws -> HouseholdCertificates {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = HouseholdCertificates(caCertificate: folder.appendingPathComponent("ca.pem"),
                                         certificate: folder.appendingPathComponent("server.pem"),
                                         key: folder.appendingPathComponent("server.key"))
        let caKey = folder.appendingPathComponent("ca.key").path
        let request = folder.appendingPathComponent("server.csr").path
        let extensions = folder.appendingPathComponent("server.ext")
        try Data("subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\n".utf8)
            .write(to: extensions)
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", caKey,
                     "-out", made.caCertificate.path, "-days", "2", "-subj", "/CN=Benchmark CA",
                     "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try openssl(["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", made.key.path,
                     "-out", request, "-subj", "/CN=127.0.0.1"])
        try openssl(["x509", "-req", "-in", request, "-CA", made.caCertificate.path, "-CAkey", caKey, "-set_serial", "1",
                     "-days", "2", "-extfile", extensions.path, "-out", made.certificate.path])
        return made
    }

    private static func openssl(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ValidationError("openssl \(arguments.first ?? "") failed with status \(process.terminationStatus)")
        }
    }
}
