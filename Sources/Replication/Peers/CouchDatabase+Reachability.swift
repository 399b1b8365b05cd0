import Foundation

extension CouchDatabase {
    /// `GET /` on the server, once, without retries: any HTTP answer (even an error status)
    /// means the server is back; a connection failure, or no answer within `timeout`, means
    /// it is not.
    public func isReachable(timeout: Duration) async -> Bool {
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        do {
            _ = try await client.send("GET", url.serverURL, retries: 0, timeout: max(0.1, seconds))
            return true
        } catch {
            return false
        }
    }
}
