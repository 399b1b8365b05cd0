import Foundation
import ObjectSync

// The whole task on the Notebook model, through the types EntityCodegenPlugin generated from
// Notebook.xcdatamodeld: fetch one folder's notes sorted by text, observe them, add one,
// save, and sync both ways with the CouchDB database named as the first argument (a store
// file's path works too; without one the notebook stays on this machine).
let argument = CommandLine.arguments.dropFirst().first
let remote = argument.map { $0.contains("://") ? URL(string: $0) : URL(filePath: $0) } ?? nil
if argument != nil, remote == nil {
    print("notebook: the argument is not a URL (it is not echoed: it may hold a password); give a database URL (https://USER:PASSWORD@HOST/notebook) or a store file's path")
    exit(64)
}
let container = try ObjectContainer(for: NotebookModelDefinition.self, url: URL(filePath: "notebook.sqlite"))
let context = container.mainContext
if let remote { try await container.sync(with: remote) }
let errands = try context.fetch(FetchDescriptor<Folder>(predicate: #Predicate { $0.name == "Errands" })).first
    ?? { let folder = try Folder.insert(into: context); folder.name = "Errands"; return folder }()
let notes = FetchDescriptor<Note>(predicate: #Predicate { $0.folder?.name == "Errands" }, sortBy: [SortDescriptor(\.text)], fetchLimit: 50)
for try await update in try context.observe(notes) {
    print(update.isInitial ? "notes:" : "observed:", update.results.map(\.text))
    guard update.isInitial else { break }
    let note = try Note.insert(into: context)
    note.text = "Note \(Date.now.formatted(.iso8601))"
    note.folder = errands
    try context.save()
}
if let remote { print(try await container.sync(with: remote)) }
