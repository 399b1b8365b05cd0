import Foundation
import Testing
import InteropSupport
import TestSupport

/// Two real `recipes sync` processes on one store: the first is interrupted during a large
/// push to `recipes serve`, and no second sync may start while the first still runs.
@Suite("An interrupted push keeps the sync lock until it has stopped", .serialized)
struct InterruptedPushTests {
    /// A picture of `megabytes` MiB that does not compress: a whole small PNG followed by
    /// random bytes (which decoders, and `add --image`, ignore after its end).
    static func largePicture(megabytes: Int, seed: UInt64) -> Data {
        var data = TestFixtures.pngBytes
        var state = seed | 1
        var bytes = [UInt8](repeating: 0, count: megabytes << 20)
        for index in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        data.append(contentsOf: bytes)
        return data
    }

    @Test("SIGINT during a large push: a second sync gets 75, a waiting one starts after the first stopped")
    func secondSyncCannotStart() async throws {
        let sandbox = try Sandbox()
        try await withServer(ServedDatabase(in: sandbox, arguments: ["--public-host", "127.0.0.2"])) { server in
            // The syncs reach the server through a proxy that stalls the upload after 12 MiB, so
            // the first sync is in the middle of its 24 MiB push when it is interrupted, however
            // fast the machine. The proxy listens on 127.0.0.2 with the server's port, so the
            // `Host` the syncs send is one the server accepts.
            let proxy = try UploadHoldingProxy(address: "127.0.0.2", port: server.port, upstreamPort: server.port, holdAfter: 12 << 20)
            defer { proxy.stop() }
            let remote = server.url().replacingOccurrences(of: "@127.0.0.1:", with: "@127.0.0.2:")
            let store = ["--store", sandbox.path("a.sqlite"), "--no-samples", "--remote", remote]
            for index in 0..<3 {
                let picture = try sandbox.write("picture-\(index).png", Self.largePicture(megabytes: 8, seed: UInt64(index + 1)))
                let added = try await sandbox.run(["add", "--name", "Large \(index)", "--image", picture] + store)
                #expect(added.status == 0, "\(added)")
            }

            let first = try await sandbox.start(["sync"] + store)
            _ = await first.waitUntil(timeout: 120) { proxy.isHolding || !first.isRunning }
            try #require(proxy.isHolding && first.isRunning && first.stderr.contains("push…"), "the first sync is not held in its push: \(first.stderr)")
            // Freeze the first sync mid-push with the interrupt pending: it stands for a step
            // that takes its time to notice the cancellation, and it is still running its push.
            let pid = first.child.processIdentifier
            kill(pid, SIGSTOP)
            kill(pid, SIGINT)

            let second = try await sandbox.run(["sync"] + store)
            #expect(second.status == 75 && second.stderr.contains("sync already running (pid \(pid))"), "\(second)")

            let waiting = try await sandbox.start(["sync", "--wait", "--verbose"] + store)
            let announced = await waiting.waitUntil(timeout: 180) {
                waiting.stderr.contains("waiting for the sync already running") || !waiting.isRunning
            }
            #expect(announced && waiting.isRunning, "\(waiting.stderr)")

            kill(pid, SIGCONT)
            let interrupted = try await first.finish()
            #expect(interrupted.status == 130 && interrupted.stderr.contains("cancelled"), "\(interrupted)")
            // The interrupted upload is gone; the waiting sync's push goes through in full.
            proxy.release()
            let finished = try await waiting.finish()
            #expect(finished.status == 0, "\(finished)")
            let status = try #require(try await sandbox.run(["status", "--json"] + store).json() as? [String: Any])
            #expect(status["pendingChanges"] as? Int == 0)
            #expect((status["lastSync"] as? [String: Any])?["result"] as? String == "succeeded")
        }
    }
}
