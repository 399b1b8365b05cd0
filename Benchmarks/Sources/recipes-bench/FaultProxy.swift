import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 proxy on 127.0.0.1 that injects faults between a client and a server on
/// another local port. For each request it draws, from a generator seeded by the caller,
/// whether to pass it through or to inflict one ``FaultKind``: drop the connection (before
/// or after the server saw the request), answer 500/502/503 itself, cut the reply's body in
/// half, or hold the request up to two seconds. One thread per client connection; every
/// request goes to the server on a fresh connection with `Connection: close`, its `Host`
/// rewritten to the server's, so the server's own host check passes, and each reply closes
/// the client's connection.
final class FaultProxy: Sendable {
    /// The port the proxy listens on.
    let port: Int

    private let upstreamPort: Int
    private let faultPercent: Int
    private let listener: Int32
    /// The fault draws, their tallies, and whether ``stop()`` was called.
    private struct State {
        var random: SplitMix64
        var tallies: [FaultKind: Int] = [:]
        var stopped = false
    }

    private let state: Mutex<State>

    /// Binds 127.0.0.1 on a free port; call ``start()`` to accept connections.
    /// - Parameters:
    ///   - upstreamPort: the server's port on 127.0.0.1.
    ///   - seed: seeds the fault draws.
    ///   - faultPercent: the share of requests that get a fault, 0…100.
    init(upstreamPort: Int, seed: UInt64, faultPercent: Int) throws {
        self.upstreamPort = upstreamPort
        self.faultPercent = faultPercent
        state = Mutex(State(random: SplitMix64(seed: seed)))
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ChaosError("socket() failed: errno \(errno)") }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            close(descriptor)
            throw ChaosError("cannot listen on 127.0.0.1: errno \(errno)")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: actual.sin_port))
    }

    /// Accepts connections on a background thread until ``stop()``.
    func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Stops accepting; connections already open finish on their own.
    func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// How many requests met each kind of fault (and `pass`) so far.
    func counts() -> [FaultKind: Int] {
        state.withLock { $0.tallies }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                if state.withLock({ $0.stopped }) { return }
                continue
            }
            let thread = Thread { [self] in
                serve(client: client)
                close(client)
            }
            thread.start()
        }
    }

    /// Relays requests of one client connection until it closes or a fault closes it.
    private func serve(client: Int32) {
        Self.setTimeouts(client, seconds: 120)
        let reader = SocketReader(descriptor: client)
        while let head = reader.readHead() {
            if head.value(of: "Expect")?.lowercased() == "100-continue" {
                Self.send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: client)
            }
            guard let body = reader.readBody(framedBy: head) else { return }
            let (fault, delay) = draw()
            switch fault {
            case .dropBeforeForward:
                Self.reset(client)
                return
            case .status500, .status502, .status503:
                let status = fault.cannedStatus!
                let json = #"{"error":"chaos","reason":"injected \#(status.code)"}"#
                let reply = "HTTP/1.1 \(status.code) \(status.reason)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)"
                Self.send(Array(reply.utf8), to: client)
                return
            case .delay:
                Thread.sleep(forTimeInterval: delay)
            case .pass, .dropAfterForward, .truncate:
                break
            }
            guard let reply = forward(head: head, body: body) else {
                // The server did not answer: say so as a gateway would.
                let text = "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                Self.send(Array(text.utf8), to: client)
                return
            }
            switch fault {
            case .dropAfterForward:
                Self.reset(client)
                return
            case .truncate:
                Self.send(Self.truncated(reply), to: client)
                return
            default:
                // The server may have ended the body by closing (its reply to a
                // `Connection: close` request): relay it marked so, and close likewise.
                Self.send(Self.closing(reply), to: client)
                return
            }
        }
    }

    /// The fault for the next request and, for `delay`, how long to wait.
    private func draw() -> (FaultKind, Double) {
        let faultPercent = faultPercent
        return state.withLock { state in
            var fault = FaultKind.pass
            if Int(state.random.next() % 100) < faultPercent {
                fault = FaultKind.faults[Int(state.random.next() % UInt64(FaultKind.faults.count))]
            }
            let delay = 0.1 + Double(state.random.next() % 1900) / 1000
            state.tallies[fault, default: 0] += 1
            return (fault, delay)
        }
    }

    /// Sends the request to the server over a fresh connection and reads its whole reply.
    private func forward(head: SocketReader.Head, body: [UInt8]) -> [UInt8]? {
        let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard upstream >= 0 else { return nil }
        defer { close(upstream) }
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        Self.setTimeouts(upstream, seconds: 120)
        let skipped: Set<String> = ["host", "connection", "keep-alive", "expect", "proxy-connection"]
        var text = head.startLine + "\r\n"
        for header in head.headers where !skipped.contains(header.name.lowercased()) {
            text += "\(header.name): \(header.value)\r\n"
        }
        text += "Host: 127.0.0.1:\(upstreamPort)\r\nConnection: close\r\n\r\n"
        guard Self.send(Array(text.utf8) + body, to: upstream) else { return nil }
        let reply = SocketReader(descriptor: upstream).readToEnd()
        return reply.isEmpty ? nil : reply
    }

    /// The reply with its `Connection` header replaced by `Connection: close`.
    private static func closing(_ reply: [UInt8]) -> [UInt8] {
        guard let headEnd = headLength(reply) else { return reply }
        var lines = String(decoding: reply[0..<headEnd - 4], as: UTF8.self).components(separatedBy: "\r\n")
        lines.removeAll { $0.lowercased().hasPrefix("connection:") || $0.lowercased().hasPrefix("keep-alive:") }
        lines.append("Connection: close")
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) + reply[headEnd...]
    }

    /// The length of the reply's head with its blank line, or nil when it has none.
    private static func headLength(_ reply: [UInt8]) -> Int? {
        var index = 0
        while index + 3 < reply.count {
            if reply[index] == 13, reply[index + 1] == 10, reply[index + 2] == 13, reply[index + 3] == 10 { return index + 4 }
            index += 1
        }
        return nil
    }

    /// The reply's head and half its body (or half its head when it has no body).
    private static func truncated(_ reply: [UInt8]) -> [UInt8] {
        let headEnd = headLength(reply) ?? 0
        let bodyLength = reply.count - headEnd
        let cut = headEnd > 0 && bodyLength > 1 ? headEnd + bodyLength / 2 : reply.count / 2
        return Array(reply[0..<cut])
    }

    /// Closes with a TCP reset (SO_LINGER 0), as a crashed peer or a cut cable looks.
    private static func reset(_ descriptor: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    @discardableResult
    private static func send(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var written = 0
        return bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let count = Glibc.send(descriptor, raw.baseAddress! + written, raw.count - written, Int32(MSG_NOSIGNAL))
                if count < 0, errno == EINTR { continue }
                if count <= 0 { return false }
                written += count
            }
            return true
        }
    }

    private static func setTimeouts(_ descriptor: Int32, seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
