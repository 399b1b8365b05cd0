#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Picks a free TCP port on 127.0.0.1 by binding port 0 and reading back the port the
/// kernel chose. The socket is closed before chromedriver binds the port, so another
/// process could take it in between; `Browser.launch` retries when that happens.
enum LoopbackPort {
    /// A port that was free a moment ago, or nil when no socket could be bound.
    static func free() -> Int? {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { return nil }
        var chosen = sockaddr_in()
        var chosenLength = length
        let named = withUnsafeMutablePointer(to: &chosen) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &chosenLength) }
        }
        guard named == 0 else { return nil }
        return Int(UInt16(bigEndian: chosen.sin_port))
    }
}
