#if canImport(Glibc)
import Glibc
#endif

/// A TCP port of 127.0.0.1 that nothing listens on, for tests of what a client does when its
/// server is not there: connections to it are refused for as long as the value lives.
///
/// The port stays bound (without listening) meanwhile, so no server another test starts on a
/// port the system picks can get it: a port merely found free and let go could be given to
/// one at once, and the client under test would then reach a server after all.
public final class TemporaryPort: Sendable {
    /// The port number.
    public let number: Int
    private let descriptor: Int32

    /// Reserves a port the system picks.
    public init() throws {
        (descriptor, number) = try LoopbackSocket.bind()
    }

    deinit { close(descriptor) }
}
