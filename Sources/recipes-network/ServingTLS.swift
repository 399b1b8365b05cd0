import Foundation
import RecipesCommandLine
import RecipesKit
import RecipesWeb
import ServerTLS

/// What `serve` and `web` share about TLS: the certificate from the options or the
/// configuration file, checked before anything listens, and the warning for plain HTTP
/// beyond loopback.
enum ServingTLS {
    /// The certificate to serve with, or `nil` for plain HTTP.
    /// - Throws: ``CommandFailure`` with one line naming the file and the problem.
    static func certificate(certificate: String?, key: String?, configuration: RecipesConfiguration) throws -> ServerCertificate? {
        let files: (certificate: URL?, key: URL?)?
        do {
            files = try configuration.tlsFiles(certificate: certificate, key: key)
        } catch {
            throw CommandFailure(message: error.description)
        }
        guard let files else { return nil }
        guard let chain = files.certificate else { throw CommandFailure(message: ServerTLSError.incomplete(given: .privateKey).description) }
        guard let key = files.key else { throw CommandFailure(message: ServerTLSError.incomplete(given: .certificate).description) }
        do {
            return try ServerCertificate(files: TLSFiles(certificateChain: chain, privateKey: key))
        } catch {
            throw CommandFailure(message: error.description)
        }
    }

    /// The one warning line for a server bound beyond loopback without TLS, on stderr.
    static func warnIfPlaintext(program: String, bind: String, certificate: ServerCertificate?) {
        guard certificate == nil, !WebConfiguration.isLoopback(bind) else { return }
        FileHandle.standardError.write(Data(
            "recipes \(program): warning: serving plain HTTP on \(bind): passwords and data cross the network in clear; give --tls-cert and --tls-key to serve HTTPS\n".utf8))
    }

    /// `http` or `https`, for the "listening on" line.
    static func scheme(_ certificate: ServerCertificate?) -> String {
        certificate == nil ? "http" : "https"
    }
}
