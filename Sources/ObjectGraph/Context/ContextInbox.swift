import Synchronization

/// Changes waiting for one context to take them in: other contexts' saves (when the context
/// merges them automatically) and rows the store reported changed underneath.
///
/// A context belongs to one isolation domain (a task, an actor, the main actor), while saves
/// and store reports arrive on whichever thread made them; they cannot touch the context
/// there. They are kept here instead, merged into one set, and the context takes them in
/// when it is next used (``ObjectContext/processPendingChanges()``), or at once on the main
/// actor for a main-actor context. Memory stays bounded by the objects named.
final class ContextInbox: Sendable {
    /// What is waiting: objects to reload or forget, and the store changes to pass to the
    /// context's store-change observers.
    struct Pending: Sendable {
        var updated: Set<ObjectID> = []
        var deleted: Set<ObjectID> = []
        var storeChanges: StoreChangeSet?
    }

    private let pending = Mutex(Pending())
    /// Whether anything waits: read on every use of the context, so it is a single load.
    private let waiting = Atomic<Bool>(false)
    /// Whether other contexts' saves are kept (``ObjectContext/automaticallyMergesChanges``).
    let mergesSaves = Atomic<Bool>(false)
    /// Called after something arrived (a main-actor context schedules its merge with it).
    private let wake = Mutex<(@Sendable () -> Void)?>(nil)

    /// Keeps another context's save, when saves are merged.
    func post(_ notification: SaveNotification) {
        guard mergesSaves.load(ordering: .relaxed) else { return }
        arrive { $0.updated.formUnion(notification.updated); $0.deleted.formUnion(notification.deleted) }
    }

    /// Keeps rows the store reported changed.
    func post(_ changes: StoreChangeSet) {
        arrive { pending in
            pending.updated.formUnion(changes.updated)
            pending.deleted.formUnion(changes.deleted)
            var all = pending.storeChanges ?? StoreChangeSet()
            all.inserted.formUnion(changes.inserted)
            all.updated.formUnion(changes.updated)
            all.deleted.formUnion(changes.deleted)
            pending.storeChanges = all
        }
    }

    private func arrive(_ change: (inout Pending) -> Void) {
        pending.withLock { change(&$0) }
        waiting.store(true, ordering: .releasing)
        wake.withLock { $0 }?()
    }

    /// Whether anything waits.
    var hasPending: Bool { waiting.load(ordering: .acquiring) }

    /// Takes what waits, leaving the inbox empty.
    func take() -> Pending? {
        guard hasPending else { return nil }
        return pending.withLock { pending in
            waiting.store(false, ordering: .releasing)
            defer { pending = Pending() }
            return pending
        }
    }

    /// Sets what is called after something arrives.
    func onArrival(_ body: @escaping @Sendable () -> Void) {
        wake.withLock { $0 = body }
    }
}
