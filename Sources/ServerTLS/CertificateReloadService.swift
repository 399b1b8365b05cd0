package import Logging
import Foundation
import ServiceLifecycle
package import UnixSignals

/// Reloads a server's certificate on every SIGHUP until the server shuts down, so a renewed
/// certificate (`certbot renew`, a new household certificate) is served without a restart.
/// A reload that fails is logged and the certificate in use stays.
package struct CertificateReloadService: Service {
    let certificate: ServerCertificate
    let signals: UnixSignalsSequence
    let logger: Logger

    /// Reloads `certificate` on each of `signals` (made by the caller before the server
    /// listens, so that a SIGHUP never meets the default action of ending the process).
    package init(certificate: ServerCertificate, signals: UnixSignalsSequence, logger: Logger) {
        self.certificate = certificate
        self.signals = signals
        self.logger = logger
    }

    /// Makes the signal sequence that traps SIGHUP from now on.
    package static func trapHangup() async -> UnixSignalsSequence {
        await UnixSignalsSequence(trapping: .sighup)
    }

    package func run() async throws {
        for await _ in signals.cancelOnGracefulShutdown() {
            do {
                try certificate.reload()
                logger.notice("reloaded the TLS certificate \(certificate.files.certificateChain.path) (serial \(certificate.serialNumber))")
            } catch {
                logger.error("SIGHUP: the TLS certificate was not reloaded: \(error); still serving the previous one")
            }
        }
    }
}
