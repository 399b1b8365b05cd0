#if canImport(Glibc)
import Glibc
#endif

/// A TCP port of 127.0.0.1 that nothing listens on, for tests of what a client does when its
/// server is not there.
public enum TemporaryPort {
    /// Binds a socket to a port the system picks, notes the port and closes the socket.
    public static func free() throws -> Int {
        let (descriptor, port) = try LoopbackSocket.bind()
        close(descriptor)
        return port
    }
}
