import Foundation
import Synchronization

/// Derived keys per (password, salt pair), kept for the life of the process.
///
/// A store of many encrypted values written with the same salts must not pay PBKDF2 per
/// value; messages written elsewhere with other salts derive their keys once too.
public final class RNCryptorKeyCache: Sendable {
    private struct Entry: Hashable {
        let password: String
        let salts: RNCryptorSalts
    }

    private let keys = Mutex<[Entry: RNCryptorKeys]>([:])
    private let derivations = Atomic<Int>(0)

    /// The cache the whole process shares.
    public static let shared = RNCryptorKeyCache()

    /// An empty cache (tests use their own to count derivations).
    public init() {}

    /// How many times this cache derived keys (a miss), for tests and benchmarks.
    public var derivationCount: Int { derivations.load(ordering: .relaxed) }

    /// The keys for `password` and `salts`, derived on first use.
    /// - Throws: ``RNCryptorError/keyDerivationFailed``.
    public func keys(password: String, salts: RNCryptorSalts) throws(RNCryptorError) -> RNCryptorKeys {
        let entry = Entry(password: password, salts: salts)
        if let found = keys.withLock({ $0[entry] }) { return found }
        // Derived outside the lock: two threads may both derive once, which is harmless.
        let derived = try RNCryptorKeys(password: password, salts: salts)
        derivations.add(1, ordering: .relaxed)
        keys.withLock { $0[entry] = derived }
        return derived
    }
}
