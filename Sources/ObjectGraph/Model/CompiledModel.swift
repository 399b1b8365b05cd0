public import ManagedModel
import Synchronization

/// A model version compiled into the program: what `EntityCodegenPlugin` generates from a
/// target's `.xcdatamodeld` (the `<Model>ModelDefinition` enum), and what a container opens a
/// store with, so an app names its model by type (`NotebookModelDefinition.self`) and never
/// reads or parses XML at run time.
public protocol CompiledModel {
    /// The version's name.
    static var versionName: String { get }
    /// The version's file in the model folder, named in errors.
    static var sourcePath: String { get }
    /// The version's entities, attributes and relationships.
    static var definition: ModelDefinition { get }
}

extension CompiledModel {
    /// The model, built once per process and type (with SHA-256 version hashes, as every
    /// store records them).
    /// - Throws: the model builder's error for a definition that does not make a model.
    public static func model() throws -> ObjectModel {
        let key = ObjectIdentifier(Self.self)
        if let built = compiledModels.withLock({ $0[key] }) { return built }
        let built = try ObjectModel.build(definition, name: versionName, path: sourcePath)
        compiledModels.withLock { $0[key] = built }
        return built
    }
}

/// Models built from compiled definitions, by type.
private let compiledModels = Mutex<[ObjectIdentifier: ObjectModel]>([:])
