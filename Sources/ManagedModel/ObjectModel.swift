public import Foundation

/// A loaded object model: the entities an application works with.
///
/// Load one with ``ObjectModel/load(contentsOf:digest:)`` (a `.xcdatamodel` folder or its
/// `contents` file) or a whole versioned `.xcdatamodeld` with ``ModelVersionSet``, or build
/// one from definitions compiled into the program with ``ObjectModel/build(_:name:path:digest:)``.
///
/// Version hashes are digests (see ``VersionDigest``; SHA-256 in hex when ObjectGraph loads
/// the model) of structural definitions, so two models hash alike exactly when a store
/// written with one can be read with the other:
/// - attribute: name, type, optional, transient;
/// - relationship: name, destination, inverse, to-many, ordered, optional, transient;
/// - entity: name, abstract, parent, and the hashes of its own properties sorted by name;
/// - model: the entity hashes sorted by entity name.
/// Defaults, validation bounds, indexes and userInfo do not change a hash (as in Core Data).
public final class ObjectModel: Sendable {
    /// The model's name (the `.xcdatamodel` folder name without extension, or the file name).
    public let name: String
    /// Entities in declaration order.
    public let entities: [EntityDescription]
    /// The digest of all entity hashes.
    public let versionHash: String
    /// Where the model was loaded from, for diagnostics.
    public let sourcePath: String

    /// Whether any entity has an encrypted attribute: a fetch on a model without one has
    /// no key path to check against them.
    public let hasEncryptedAttributes: Bool

    private let entitiesByName: [String: EntityDescription]

    init(name: String, entities: [EntityDescription], versionHash: String, sourcePath: String) {
        self.name = name
        self.entities = entities
        self.versionHash = versionHash
        self.sourcePath = sourcePath
        self.entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        self.hasEncryptedAttributes = entities.contains { $0.attributes.contains(where: \.isEncrypted) }
    }

    /// The entity called `name`, if the model has one.
    public func entity(named name: String) -> EntityDescription? { entitiesByName[name] }

    /// Entity names keyed to their version hashes (what a store records in its metadata).
    public var entityVersionHashes: [String: String] {
        Dictionary(entities.map { ($0.name, $0.versionHash) }, uniquingKeysWith: { a, _ in a })
    }

    /// `entity` and all its sub-entities, recursively (entity first).
    public func entityAndSubentities(of entity: EntityDescription) -> [EntityDescription] {
        var result = [entity]
        for sub in entity.subentityNames {
            if let e = self.entity(named: sub) { result += entityAndSubentities(of: e) }
        }
        return result
    }

    /// Whether `entity` is `ancestor` or one of its sub-entities.
    public func entity(_ entity: EntityDescription, isKindOf ancestor: EntityDescription) -> Bool {
        var current: EntityDescription? = entity
        while let c = current {
            if c.name == ancestor.name { return true }
            current = c.superentityName.flatMap { self.entity(named: $0) }
        }
        return false
    }

    /// Loads a model from a `.xcdatamodel` folder or its `contents` XML file, or the
    /// current version of a `.xcdatamodeld` folder, hashing versions with `digest`.
    /// - Throws: ``ModelError`` naming file, line and element when the model is invalid.
    public static func load(contentsOf url: URL, digest: VersionDigest) throws -> ObjectModel {
        if url.pathExtension == "xcdatamodeld" { return try ModelVersionSet.loadCurrent(contentsOf: url, digest: digest) }
        var isDirectory: ObjCBool = false
        var fileURL = url
        var name = url.deletingPathExtension().lastPathComponent
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            fileURL = url.appendingPathComponent("contents")
        } else if url.lastPathComponent == "contents" {
            name = url.deletingLastPathComponent().deletingPathExtension().lastPathComponent
        }
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            throw ModelError(file: fileURL.path, line: 0, element: "model", reason: "cannot read the file (\(error.localizedDescription)); check the path points at a .xcdatamodel folder or its contents file")
        }
        return try load(xml: data, name: name, path: fileURL.path, digest: digest)
    }

    /// Loads a model from XML bytes in Xcode's model format, hashing versions with `digest`;
    /// `path` names it in errors.
    public static func load(xml: Data, name: String, path: String, digest: VersionDigest) throws -> ObjectModel {
        try build(ModelDefinition(xml: xml, path: path), name: name, path: path, digest: digest)
    }

    /// Validates a model version's definitions and builds the model, hashing versions with
    /// `digest`: the same model, with the same version hashes, as loading the XML they came
    /// from. `name` is the model's name and `path` names it in errors.
    /// - Throws: ``ModelError`` naming file, line and element when the model is invalid.
    public static func build(_ definition: ModelDefinition, name: String, path: String, digest: VersionDigest) throws -> ObjectModel {
        try ModelBuilder(definition: definition, path: path, name: name, digest: digest).build()
    }
}
