public import Observation
import Synchronization

/// Managed objects take part in the Observation framework: reading a property inside
/// `withObservationTracking` (or a SwiftUI view's body on Apple platforms) registers
/// interest in that property of that object, and any change to it (a typed or key-value
/// write, a merge of another context's save, a refresh, a rollback) fires the observers.
/// Each property is observed on its own, whether it is read through a generated view or by key.
extension ManagedObject: Observable {
    /// The key path the registrar files a property under. Key paths are made once per
    /// property name and shared by every object.
    static func observationKeyPath(_ key: String) -> KeyPath<ManagedObject, Int> {
        observationKeyPaths.withLock { cache in
            if let keyPath = cache[key] { return keyPath }
            let keyPath = \ManagedObject.[observedProperty: key]
            cache[key] = keyPath
            return keyPath
        }
    }

    /// The stand-in member each observed property's key path points at.
    subscript(observedProperty key: String) -> Int { 0 }

    /// Records that the caller read `key` (for an enclosing `withObservationTracking`).
    func recordAccess(_ key: String) {
        observationRegistrar.access(self, keyPath: Self.observationKeyPath(key))
    }

    /// Tells observers of `key` that it changes, around `body`.
    func notifyingChange<T>(of key: String, _ body: () throws -> T) rethrows -> T {
        try observationRegistrar.withMutation(of: self, keyPath: Self.observationKeyPath(key), body)
    }

    /// Tells observers of every property that the values may have changed (the object was
    /// refreshed, merged, rolled back or deleted elsewhere).
    func notifyAllPropertiesChanged() {
        for key in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
            let keyPath = Self.observationKeyPath(key)
            observationRegistrar.willSet(self, keyPath: keyPath)
            observationRegistrar.didSet(self, keyPath: keyPath)
        }
    }
}

/// The registrar's key paths by property name (see ``ManagedObject/observationKeyPath(_:)``).
private let observationKeyPaths = Mutex<[String: KeyPath<ManagedObject, Int>]>([:])
