import Synchronization

/// Contexts for main-actor code.
extension ObjectContext {
    /// A context for main-actor code (a user interface): it is used on the main actor only,
    /// and it takes in other contexts' saves (when ``automaticallyMergesChanges`` is on) and
    /// changes underneath on the main actor as they arrive, so objects a view shows, and
    /// their observers, follow without the view asking.
    @MainActor
    public static func forMainActor(coordinator: PersistentStoreCoordinator, name: String = "main") -> ObjectContext {
        let context = ObjectContext(coordinator: coordinator, name: name)
        MainActorContexts.add(context)
        context.inbox.onArrival { MainActorContexts.scheduleMerge() }
        return context
    }
}

/// The live main-actor contexts, merged together on the main actor after changes arrive.
@MainActor
enum MainActorContexts {
    private final class Entry {
        weak var context: ObjectContext?
        init(_ context: ObjectContext) { self.context = context }
    }

    private static var entries: [Entry] = []
    /// Whether a merge is already scheduled (many saves in a row schedule one).
    private nonisolated static let scheduled = Atomic<Bool>(false)

    static func add(_ context: ObjectContext) {
        entries.removeAll { $0.context == nil }
        entries.append(Entry(context))
    }

    /// Schedules one merge of every main-actor context on the main actor.
    nonisolated static func scheduleMerge() {
        guard scheduled.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        Task { @MainActor in
            scheduled.store(false, ordering: .releasing)
            entries.removeAll { $0.context == nil }
            for entry in entries { entry.context?.processPendingChanges() }
        }
    }
}
