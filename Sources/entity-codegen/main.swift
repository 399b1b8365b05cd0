import EntityCodegen
import Foundation
import ManagedModel

// entity-codegen <model.xcdatamodeld> <entities.swift> [<definition.swift>]
//
// Writes the entity types of the model's current version to the entities file and, when a
// third path is given, the version's definitions as Swift literals (ModelDefinitionGenerator),
// so the program builds its model without parsing XML. A model error is printed as
// `file:line: error: element: reason`, the form SwiftPM and editors show at the offending
// line, and the tool exits with status 1.

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2 || arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: entity-codegen <model.xcdatamodeld> <entities.swift> [<definition.swift>]\n".utf8))
    exit(2)
}
let modelPath = arguments[0]
var outputPath = arguments[1]

do {
    let generator = try EntityCodeGenerator.load(modelAt: URL(fileURLWithPath: modelPath))
    let entities = try generator.generate()
    try Data(entities.utf8).write(to: URL(fileURLWithPath: outputPath), options: .atomic)
    if arguments.count == 3 {
        outputPath = arguments[2]
        let definition = try ModelDefinitionGenerator(versions: generator.versions, modelPath: generator.modelPath).generate()
        try Data(definition.utf8).write(to: URL(fileURLWithPath: outputPath), options: .atomic)
    }
} catch let error as ModelError {
    FileHandle.standardError.write(Data((error.diagnostic + "\n").utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("\(outputPath): error: cannot write the generated file (\(error)); check the build directory is writable\n".utf8))
    exit(1)
}
