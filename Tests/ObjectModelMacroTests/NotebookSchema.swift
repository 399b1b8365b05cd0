import Foundation
import ObjectModelMacro

/// The Notebook example's model (Examples/Notebook, `Notebook.xcdatamodeld`) declared in Swift.
@ObjectModel("Notebook")
enum NotebookSchema {
    /// A named folder of notes.
    @Entity struct Folder {
        var name: String
        var created: Date?
        /// The folder's notes, in the order they were filed.
        @Relationship(inverse: "folder", deleteRule: .cascade) var notes: [Note]
    }

    /// One note: a line of text.
    @Entity struct Note {
        var text: String
        /// Pinned notes are listed first.
        @Attribute(default: false) var pinned: Bool
        @Relationship(inverse: "notes") var folder: Folder?
    }
}
