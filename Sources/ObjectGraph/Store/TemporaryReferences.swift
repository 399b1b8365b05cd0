import Foundation

/// Hands out the reference strings of temporary object IDs: `t<token>-<n>`, a random token
/// chosen once per process and a counter.
///
/// Temporary IDs only have to be unique within the process (they are replaced by the
/// store's permanent IDs on save and never written anywhere), so a counter does; it is much
/// cheaper than a fresh random UUID for each of the many objects a large import inserts.
enum TemporaryReferences {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var counter: UInt64 = 0
    private static let token = "t" + UUID().uuidString.prefix(8) + "-"

    /// The next unused temporary reference string.
    static func next() -> String {
        lock.lock()
        counter += 1
        let n = counter
        lock.unlock()
        return token + String(n)
    }
}
