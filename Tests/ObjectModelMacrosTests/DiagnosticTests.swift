import ObjectModelMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// Expands `source` with `macros` and checks the expansion and diagnostics, reporting
/// failures to Swift Testing.
func expect(_ source: String, expandsTo expanded: String, diagnostics: [DiagnosticSpec],
            macros: [String: any Macro.Type], sourceLocation: SourceLocation = #_sourceLocation) {
    assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics,
                         macroSpecs: macros.mapValues { MacroSpec(type: $0) }) { failure in
        Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
    }
}

/// The model macros' compile-time errors, checked on their expansion.
@Suite("Model macro diagnostics")
struct DiagnosticTests {
    @Test("inverses that do not name each other are reported at the inverse, naming both sides")
    func inverseMismatch() {
        expect(
            """
            @ObjectModel("Notebook")
            enum NotebookSchema {
                @Entity struct Folder {
                    @Relationship(inverse: "folder") var notes: [Note]
                    @Relationship(inverse: "folder") var other: [Note]
                }
                @Entity struct Note {
                    @Relationship(inverse: "other") var folder: Folder?
                }
            }
            """,
            expandsTo: """
            enum NotebookSchema {
                @Entity struct Folder {
                    @Relationship(inverse: "folder") var notes: [Note]
                    @Relationship(inverse: "folder") var other: [Note]
                }
                @Entity struct Note {
                    @Relationship(inverse: "other") var folder: Folder?
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "Folder.notes names inverse Note.folder, but Note.folder names inverse Folder.other; make the two name each other",
                               line: 4, column: 32),
            ],
            macros: ["ObjectModel": ObjectModelMacro.self])
    }

    @Test("an inverse naming a missing property, and a relationship to no entity of the model, are reported")
    func missingInverseAndDestination() {
        expect(
            """
            @ObjectModel("Notebook")
            enum NotebookSchema {
                @Entity struct Folder {
                    @Relationship(inverse: "folder") var notes: Set<Note>
                    var owner: Person?
                }
                @Entity struct Note {
                    var text: String
                }
            }
            """,
            expandsTo: """
            enum NotebookSchema {
                @Entity struct Folder {
                    @Relationship(inverse: "folder") var notes: Set<Note>
                    var owner: Person?
                }
                @Entity struct Note {
                    var text: String
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "Folder.notes names inverse Note.folder, but Note has no relationship 'folder'", line: 4, column: 32),
                DiagnosticSpec(message: "Folder.owner is a relationship to Person, which is not an @Entity struct of this @ObjectModel enum", line: 5, column: 9),
            ],
            macros: ["ObjectModel": ObjectModelMacro.self])
    }

    @Test("an unsupported property type, an initial value and an @Entity outside an @ObjectModel enum are reported")
    func entityErrors() {
        expect(
            """
            @Entity struct Loose {
                var count: Int
                var name: String = "x"
            }
            """,
            expandsTo: """
            struct Loose {
                var count: Int
                var name: String = "x"
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@Entity struct Loose must be declared inside an enum marked @ObjectModel, which makes the model of its entities", line: 1, column: 1),
                DiagnosticSpec(message: "Loose.count has type Int, which the model cannot hold; use Int16, Int32 or Int64, the model's integer types", line: 2, column: 16),
                DiagnosticSpec(message: "Loose.name cannot have an initial value: its value lives in the managed object; give an attribute a default with @Attribute(default:)", line: 3, column: 22),
            ],
            macros: ["Entity": EntityMacro.self])
    }
}
