import Foundation
import ObjectGraph

// Files three notes in a folder of an in-memory store, saves, and lists them pinned first,
// through the `Folder` and `Note` types EntityCodegenPlugin generated from
// Notebook.xcdatamodeld when this target was built.

guard let modelURL = Bundle.module.url(forResource: "Notebook", withExtension: "xcdatamodeld") else {
    fatalError("Notebook.xcdatamodeld is missing from the bundle; check the target's resources")
}
let model = try ModelVersionSet.load(contentsOf: modelURL).current
let context = ObjectContext(coordinator: try PersistentStoreCoordinator(model: model, store: InMemoryStore()))

let folder = try Folder.insert(into: context)
folder.name = "Errands"
folder.created = Date()
for (text, pinned) in [("Water the plants", false), ("Call Ann back", true), ("Buy bread", false)] {
    let note = try Note.insert(into: context)
    note.text = text
    note.pinned = pinned
    try folder.addToNotes(note)
}
try context.save()

print("\(try folder.name): \(try folder.notes.count) notes")
let sorted = [FetchSortDescriptor("pinned", ascending: false), FetchSortDescriptor("text")]
for note in try Note.fetch(in: context, where: ObjectPredicate(format: "folder.name == %@", "Errands"), sortedBy: sorted) {
    print("- \(try note.text)\(try note.pinned ? " (pinned)" : "")")
}
