import CouchProtocol
import Synchronization
#if canImport(Glibc)
/// glibc's `malloc_trim`, which the Glibc module does not export (it lives in `malloc.h`).
@_silgen_name("malloc_trim")
private func returnFreedMemory(_ pad: Int) -> Int32
#endif

/// What one request holds of the server's `RequestBodyBudget`: the bytes of its body, then
/// the memory its JSON is estimated to build while parsing. Everything is given back when
/// the request is answered, so the budget bounds bodies and what they parse into alike.
final class BodyReservation: Sendable {
    private let budget: RequestBodyBudget
    private let held = Mutex(0)
    /// Bytes reserved ahead for parsing and not yet claimed by it.
    private let prepaid = Mutex(0)

    init(budget: RequestBodyBudget) {
        self.budget = budget
    }

    /// The bytes held now.
    var bytes: Int { held.withLock { $0 } }

    /// Counts `bytes` the caller has already reserved from the budget itself.
    func adopt(_ bytes: Int) {
        held.withLock { $0 += bytes }
    }

    /// Counts `bytes` the caller has reserved for parsing ahead of time: `grow(by:)` draws on
    /// them before it asks the budget for more.
    func adoptForParsing(_ bytes: Int) {
        adopt(bytes)
        prepaid.withLock { $0 += bytes }
    }

    /// Takes `bytes` more for parsing: from what was reserved ahead, then from the budget
    /// without waiting; 413 when this request alone would need more than the whole budget,
    /// 503 (retry shortly) when other requests hold the rest.
    func grow(by bytes: Int) throws {
        let drawn = prepaid.withLock { prepaid in
            let drawn = min(prepaid, bytes)
            prepaid -= drawn
            return drawn
        }
        let bytes = bytes - drawn
        guard bytes > 0 else { return }
        let total = held.withLock { $0 } + bytes
        guard total <= budget.total else { throw CouchError.tooLarge }
        guard budget.reserveAhead(bytes) else { throw CouchError.bodyBudgetExhausted }
        adopt(bytes)
    }

    /// Gives everything back to the budget. After a large request the freed memory is also
    /// handed back to the system: glibc keeps freed blocks in per-thread arenas, and requests
    /// served one after another on different threads would otherwise add up in resident
    /// memory although each stayed within the budget.
    func releaseAll() {
        let bytes = held.withLock { held in
            defer { held = 0 }
            return held
        }
        budget.release(bytes)
        #if canImport(Glibc)
        if bytes >= Self.trimAfterBytes { _ = returnFreedMemory(0) }
        #endif
    }

    /// Requests that held at least this much return freed memory to the system when done.
    static let trimAfterBytes = 8 * 1024 * 1024
}
