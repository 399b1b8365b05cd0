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

    @Test("bounds, counts, userInfo and model names that do not fit their property are reported at the argument")
    func optionErrors() {
        expect(
            """
            @ObjectModel("Shop")
            enum Shop {
                @Entity struct Product {
                    @Attribute(minValue: 1.5) var count: Int16
                    @Attribute(minValue: 5, maxValue: 2) var name: String
                    @Attribute(minValue: 0) var active: Bool
                    @Attribute(userInfo: ["swiftName": "code"]) var sku: String
                    @Relationship(minCount: 1) var maker: Maker?
                    @Attribute(modelName: "") var label: String
                }
            }
            """,
            expandsTo: """
            @ObjectModel("Shop")
            enum Shop {
                struct Product {
                    @Attribute(minValue: 1.5) var count: Int16
                    @Attribute(minValue: 5, maxValue: 2) var name: String
                    @Attribute(minValue: 0) var active: Bool
                    @Attribute(userInfo: ["swiftName": "code"]) var sku: String
                    @Relationship(minCount: 1) var maker: Maker?
                    @Attribute(modelName: "") var label: String
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "1.5 is not a valid minValue for Product.count, a Int16", line: 4, column: 30),
                DiagnosticSpec(message: "the maxValue of Product.name (2) is below its minValue (5); make minValue ≤ maxValue", line: 5, column: 43),
                DiagnosticSpec(message: "Product.active, a Bool, has no minValue: only numbers, strings, data and dates have bounds", line: 6, column: 30),
                DiagnosticSpec(message: "the userInfo entry \"swiftName\" of Product.sku comes from the Swift name (give the model's name with modelName:); remove it from userInfo",
                               line: 7, column: 31),
                DiagnosticSpec(message: "minCount applies to a to-many relationship; Product.maker is a to-one relationship", line: 8, column: 33),
                DiagnosticSpec(message: "the modelName of Product.label must be a non-empty string literal: the property's name in the model", line: 9, column: 31),
            ],
            macros: ["Entity": EntityMacro.self])
    }

    @Test("@Entity and @FetchIndex arguments the macros cannot read are reported, and the struct stays as written")
    func entityArgumentErrors() {
        expect(
            """
            @ObjectModel("Shop")
            enum Shop {
                @Entity(modelName: "", parent: Item, isAbstract: yes)
                @FetchIndex("byTitle", .reverse("title"))
                struct Product {
                    var title: String
                }
            }
            """,
            expandsTo: """
            @ObjectModel("Shop")
            enum Shop {
                @FetchIndex("byTitle", .reverse("title"))
                struct Product {
                    var title: String
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "the modelName of @Entity struct Product must be a non-empty string literal: the entity's name in the model", line: 3, column: 24),
                DiagnosticSpec(message: "the parent of @Entity struct Product must be written as another @Entity struct's type, Parent.self", line: 3, column: 36),
                DiagnosticSpec(message: "isAbstract of @Entity struct Product must be true or false", line: 3, column: 54),
                DiagnosticSpec(message: "an element of fetch index \"byTitle\" of Product must be a property's name as a string literal, or .ascending(\"name\") or .descending(\"name\")",
                               line: 4, column: 28),
            ],
            macros: ["Entity": EntityMacro.self])
    }

    @Test("a parent that is no entity of the model, an inherited property declared differently and a fetch index naming no property are reported")
    func modelErrors() {
        expect(
            """
            @ObjectModel("Shop")
            enum Shop {
                @Entity(parent: Base.self)
                struct Product {
                    var title: String
                }
                @Entity
                @FetchIndex("byName", "name")
                struct Item {
                    var title: String
                }
                @Entity(parent: Item.self)
                struct Special {
                    var title: Int32
                }
            }
            """,
            expandsTo: """
            enum Shop {
                @Entity(parent: Base.self)
                struct Product {
                    var title: String
                }
                @Entity
                @FetchIndex("byName", "name")
                struct Item {
                    var title: String
                }
                @Entity(parent: Item.self)
                struct Special {
                    var title: Int32
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "the parent of Product, Base, is not an @Entity struct of this @ObjectModel enum", line: 3, column: 21),
                DiagnosticSpec(message: "fetch index \"byName\" of Item names 'name', which is no stored property of Item", line: 8, column: 27),
                DiagnosticSpec(message: "Special.title is inherited from Item and declared differently here; declare it exactly as Item does (type and options), or remove it",
                               line: 14, column: 9),
            ],
            macros: ["ObjectModel": ObjectModelMacro.self])
    }
}
