import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP listener on 127.0.0.1 that never accepts: connections to it complete (the kernel
/// queues them) and requests sent on them are never read or answered. Behind an
/// `UploadHoldingProxy` it keeps a client inside one request for as long as the test needs,
/// however fast the machine is.
public final class SilentListener: Sendable {
    /// The port it listens on.
    public let port: Int
    private let descriptor: Int32

    /// Listens on a free port of 127.0.0.1.
    public init() throws {
        let (descriptor, port) = try LoopbackSocket.bind()
        guard listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw SocketError(message: "listen: errno \(errno)")
        }
        self.descriptor = descriptor
        self.port = port
    }

    deinit { close(descriptor) }
}
