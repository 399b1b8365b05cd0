// Test-only helper for the crash-safety test of DocumentIncrementalStore: saves one large
// context into a store file so the test can kill this process in the middle of the save.
//
// Usage: dis-save-child <store.sqlite> <path/to/Model.xcdatamodeld> <recipes> [--hold]
// Prints "saving" (flushed) right before the save and "saved" after it. With --hold, the save
// runs inside an open datastore transaction; the child then prints "holding" and waits to be
// killed without committing (a handshake, so the test's kill lands mid-transaction however
// busy the machine is; a child whose test runner died ends by itself ten minutes later).
import DocumentIncrementalStore
import Foundation
import ObjectGraph

let arguments = CommandLine.arguments
guard arguments.count == 4 || (arguments.count == 5 && arguments[4] == "--hold"), let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: dis-save-child <store.sqlite> <model.xcdatamodeld> <recipes> [--hold]\n".utf8))
    exit(2)
}
do {
    let model = try ModelVersionSet.load(contentsOf: URL(fileURLWithPath: arguments[2])).current
    let store = try DocumentIncrementalStore(path: arguments[1])
    let coordinator = try PersistentStoreCoordinator(model: model, store: store)
    let context = ObjectContext(coordinator: coordinator, name: "child")
    for i in 0..<count {
        let recipe = try context.insert("Recipe")
        try recipe.setValue(.string("Crash recipe \(i)"), forKey: "name")
        for j in 0..<8 {
            let ingredient = try context.insert("Ingredient")
            try ingredient.setValue(.string("Ingredient \(j)"), forKey: "name")
            try ingredient.setValue(.int(Int64(j)), forKey: "displayOrder")
            try ingredient.setObject(recipe, forKey: "recipe")
        }
    }
    FileHandle.standardOutput.write(Data("saving\n".utf8))
    if arguments.count == 5 {
        try store.performAtomically {
            try context.save()
            FileHandle.standardOutput.write(Data("holding\n".utf8))
            sleep(600)
            _exit(3)
        }
    }
    try context.save()
    FileHandle.standardOutput.write(Data("saved\n".utf8))
} catch {
    FileHandle.standardError.write(Data("dis-save-child: \(error)\n".utf8))
    exit(1)
}
