public import Foundation

/// Save and store-change observers.
extension ObjectContext {
    // MARK: Observers

    /// Registers a closure called after every successful save of this context (on the
    /// thread that called ``save()``, once the save completed, so the closure may call into
    /// other contexts). Returns a token for removal.
    @discardableResult
    public func addSaveObserver(_ observer: @escaping @Sendable (SaveNotification) -> Void) -> UUID {
        entering {
            let token = UUID()
            saveObservers[token] = observer
            return token
        }
    }

    /// Registers a closure called after this context absorbed changes the store reported
    /// underneath (so the application can reload what it shows).
    @discardableResult
    public func addStoreChangeObserver(_ observer: @escaping @Sendable (StoreChangeSet) -> Void) -> UUID {
        entering {
            let token = UUID()
            changeObservers[token] = observer
            return token
        }
    }

    /// Removes a save or store-change observer.
    public func removeObserver(_ token: UUID) {
        entering {
            saveObservers[token] = nil
            changeObservers[token] = nil
        }
    }
}
