import Foundation
import PackagePlugin

/// Generates the typed entity views of every `.xcdatamodeld` folder inside a target: one
/// `<Model>Entities.swift` per model, and `<Model>ModelDefinition.swift`, the current version
/// compiled in (so the target builds its model without parsing XML at start), written by the
/// `entity-codegen` tool into the plugin's work directory and compiled with the target. The command runs again whenever a file of
/// the model changes; an invalid model fails the build at the model's file and line.
@main
struct EntityCodegenPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let tool = try context.tool(named: "entity-codegen")
        guard let target = target as? SwiftSourceModuleTarget else { return [] }
        let models = try Self.models(in: target.directoryURL)
        if models.isEmpty {
            Diagnostics.warning("EntityCodegenPlugin found no .xcdatamodeld folder in target \(target.name); put the model in the target's directory or remove the plugin")
        }
        return try models.map { model in
            let name = model.deletingPathExtension().lastPathComponent
            let entities = context.pluginWorkDirectoryURL.appendingPathComponent("\(name)Entities.swift")
            let definition = context.pluginWorkDirectoryURL.appendingPathComponent("\(name)ModelDefinition.swift")
            return .buildCommand(
                displayName: "Generating entity types and the compiled model from \(model.lastPathComponent)",
                executable: tool.url,
                arguments: [model.path, entities.path, definition.path],
                inputFiles: try Self.files(in: model),
                outputFiles: [entities, definition])
        }
    }

    /// The `.xcdatamodeld` folders under `directory`, sorted by path (none inside another).
    static func models(in directory: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        var found: [URL] = []
        for case let url as URL in walker where url.pathExtension == "xcdatamodeld" {
            found.append(url)
            walker.skipDescendants()
        }
        return found.sorted { $0.path < $1.path }
    }

    /// Every file of a model folder (versions, `.xccurrentversion`), so that editing any
    /// of them runs the generator again.
    static func files(in model: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: model, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
        var files: [URL] = []
        for case let url as URL in walker where (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true {
            files.append(url)
        }
        return files.sorted { $0.path < $1.path }
    }
}
