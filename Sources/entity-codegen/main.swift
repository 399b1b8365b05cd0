import EntityCodegen
import Foundation
import ManagedModel

// entity-codegen <model.xcdatamodeld> <output.swift>
//
// Writes the entity types of the model's current version to the output file. A model error is
// printed as `file:line: error: element: reason`, the form SwiftPM and editors show at the
// offending line, and the tool exits with status 1.

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let modelPath = arguments.first, let outputPath = arguments.last else {
    FileHandle.standardError.write(Data("usage: entity-codegen <model.xcdatamodeld> <output.swift>\n".utf8))
    exit(2)
}

do {
    let source = try EntityCodeGenerator.load(modelAt: URL(fileURLWithPath: modelPath)).generate()
    try Data(source.utf8).write(to: URL(fileURLWithPath: outputPath), options: .atomic)
} catch let error as ModelError {
    FileHandle.standardError.write(Data((error.diagnostic + "\n").utf8))
    exit(1)
} catch {
    FileHandle.standardError.write(Data("\(outputPath): error: cannot write the generated entities (\(error)); check the build directory is writable\n".utf8))
    exit(1)
}
