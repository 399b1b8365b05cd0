/// The function that turns a model element's canonical definition into its version hash.
///
/// A version hash identifies a structural definition (see ``ObjectModel``): two elements
/// hash alike exactly when their canonical definitions are equal. Which digest condenses
/// the definition is the loader's choice, so this module needs no cryptography library:
/// ObjectGraph's loaders use SHA-256, which is what stores record in their metadata, and a
/// build tool that only compares versions with each other can keep the definitions as they
/// are with ``canonical``.
public struct VersionDigest: Sendable {
    private let digest: @Sendable (String) -> String

    /// A digest computed by `digest` from a canonical definition.
    public init(_ digest: @escaping @Sendable (String) -> String) {
        self.digest = digest
    }

    /// The canonical definition itself: equal exactly when the definitions are, with no
    /// digest to compute. Hashes made this way are not the ones stores record.
    public static let canonical = VersionDigest { $0 }

    /// The version hash of `definition`.
    public func hash(_ definition: String) -> String { digest(definition) }
}
