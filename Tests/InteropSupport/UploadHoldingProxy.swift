import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 in front of a server that forwards every byte until clients have
/// sent `holdAfter` bytes in total, and then stops reading from them until `release()`.
///
/// It puts a process in the middle of a large upload deterministically: requests smaller than
/// the threshold (a pull, a `_revs_diff`) pass, and the upload that crosses it stalls with its
/// bytes in flight, however fast the machine is. The counting is of raw bytes, so it needs no
/// knowledge of HTTP, and it passes the `Host` header through unchanged: a server that checks
/// it must accept the proxy's address (listen on another loopback address, `127.0.0.2`, with
/// the server's own port number).
public final class UploadHoldingProxy: Sendable {
    private struct State {
        var uploaded = 0
        var holding = false
        var released = false
        var sockets: [Int32] = []
        var closed = false
        var listenerClosed = false
    }

    /// The port the proxy listens on.
    public let port: Int
    private let listener: Int32
    private let upstreamPort: UInt16
    private let holdAfter: Int
    private let state = Mutex(State())
    private let opened = DispatchSemaphore(value: 0)
    /// Signalled when the accept loop has returned, so the listener can be closed under it.
    private let acceptEnded = DispatchSemaphore(value: 0)

    /// Starts a proxy listening on `address`:`port` (0: a free port) to
    /// `127.0.0.1:upstreamPort` that holds uploads after `holdAfter` bytes.
    public init(address: String = "127.0.0.1", port: Int = 0, upstreamPort: Int, holdAfter: Int) throws {
        guard let upstream = UInt16(exactly: upstreamPort) else { throw SocketError(message: "bad port \(upstreamPort)") }
        self.upstreamPort = upstream
        self.holdAfter = holdAfter
        // A proxy may be opened again on the address of one closed a moment ago.
        let (listener, bound) = try LoopbackSocket.bind(address: address, port: port, reuseAddress: true)
        guard listen(listener, 16) == 0 else {
            close(listener)
            throw SocketError(message: "listen: errno \(errno)")
        }
        self.listener = listener
        self.port = bound
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    deinit {
        if !state.withLock({ $0.listenerClosed }) { close(listener) }
    }

    /// Whether an upload is being held (the threshold was crossed and `release()` not called).
    public var isHolding: Bool { state.withLock { $0.holding && !$0.released } }

    /// The bytes clients have sent through the proxy so far.
    public var uploadedBytes: Int { state.withLock { $0.uploaded } }

    /// Lets every held and later upload through, without a limit from now on.
    public func release() {
        let first = state.withLock { state in
            defer { state.released = true }
            return !state.released
        }
        if first { opened.signal() }
    }

    /// Closes the listener and every connection (held ones too). When it returns, the
    /// address is free: another proxy can listen on it at once.
    public func stop() {
        let (sockets, first) = state.withLock { state in
            defer { state.closed = true }
            return (state.sockets, !state.closed)
        }
        shutdown(listener, Int32(SHUT_RDWR))
        for socket in sockets { shutdown(socket, Int32(SHUT_RDWR)) }
        release()
        guard first else { return }
        acceptEnded.wait()
        state.withLock { $0.listenerClosed = true }
        close(listener)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    private func acceptLoop() {
        defer { acceptEnded.signal() }
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: upstreamPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            let closed = state.withLock { state in
                if !state.closed { state.sockets += [client, server] }
                return state.closed
            }
            guard connected == 0, !closed else {
                close(client)
                close(server)
                continue
            }
            let done = DispatchGroup()
            done.enter()
            done.enter()
            Thread.detachNewThread { [self] in
                pump(from: client, to: server, counted: true)
                done.leave()
            }
            Thread.detachNewThread { [self] in
                pump(from: server, to: client, counted: false)
                done.leave()
            }
            Thread.detachNewThread { [self] in
                done.wait()
                state.withLock { $0.sockets.removeAll { $0 == client || $0 == server } }
                close(client)
                close(server)
            }
        }
    }

    /// Copies bytes until either side closes. Upload bytes are counted, and the copy waits at
    /// the threshold until the proxy is released.
    private func pump(from source: Int32, to destination: Int32, counted: Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var allowed = buffer.count
            if counted {
                allowed = state.withLock { state in
                    state.released ? buffer.count : min(buffer.count, max(0, holdAfter - state.uploaded))
                }
                if allowed == 0 {
                    state.withLock { $0.holding = true }
                    opened.wait()
                    opened.signal()
                    continue
                }
            }
            let count = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, allowed) }
            guard count > 0 else { break }
            if counted { state.withLock { $0.uploaded += count } }
            var offset = 0
            while offset < count {
                let written = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL)) }
                guard written > 0 else { break }
                offset += written
            }
            guard offset == count else { break }
        }
        shutdown(destination, Int32(SHUT_WR))
    }
}
