import Foundation
import Testing
@testable import ObjectGraph

/// Foundation `#Predicate`s and `SortDescriptor`s over entity views become the store's
/// string-keyed predicates and sorts.
@Suite("Typed predicates translate to object predicates")
struct TypedPredicateTests {
    static func translated(_ predicate: Predicate<Note>) throws -> String {
        try ObjectPredicate(predicate).description
    }

    @Test("comparisons: ==, !=, <, <=, >, >=, nil, and constants on either side")
    func comparisons() throws {
        let title = "Kyoto"
        #expect(try Self.translated(#Predicate<Note> { $0.title == title }) == #"title == "Kyoto""#)
        #expect(try Self.translated(#Predicate<Note> { $0.title != "Kyoto" }) == #"title != "Kyoto""#)
        #expect(try Self.translated(#Predicate<Note> { $0.pages < 5 }) == "pages < 5")
        #expect(try Self.translated(#Predicate<Note> { $0.pages <= 5 }) == "pages <= 5")
        #expect(try Self.translated(#Predicate<Note> { $0.pages > 5 }) == "pages > 5")
        #expect(try Self.translated(#Predicate<Note> { $0.rating >= 2.5 }) == "rating >= 2.5")
        #expect(try Self.translated(#Predicate<Note> { 5 > $0.pages }) == "pages < 5")
        #expect(try Self.translated(#Predicate<Note> { $0.subtitle == nil }) == "subtitle == nil")
        #expect(try Self.translated(#Predicate<Note> { $0.subtitle != nil }) == "subtitle != nil")
    }

    @Test("ranges, IN, string containment and prefixes, plain and [cd]")
    func membershipAndStrings() throws {
        let titles = ["Kyoto", "Lisbon"]
        #expect(try Self.translated(#Predicate<Note> { titles.contains($0.title) }) == #"title IN {"Kyoto", "Lisbon"}"#)
        #expect(try Self.translated(#Predicate<Note> { (2...5).contains($0.pages) }) == "pages BETWEEN {2, 5}")
        #expect(try Self.translated(#Predicate<Note> { (2..<5).contains($0.pages) }) == "(pages >= 2 AND pages < 5)")
        #expect(try Self.translated(#Predicate<Note> { $0.title.contains("soup") }) == #"title CONTAINS "soup""#)
        #expect(try Self.translated(#Predicate<Note> { $0.title.starts(with: "L") }) == #"title BEGINSWITH "L""#)
        #expect(try Self.translated(#Predicate<Note> { $0.title.localizedStandardContains("creme") }) == #"title CONTAINS[cd] "creme""#)
        let cre = LocalizedStandardPrefix("cre")
        #expect(try Self.translated(#Predicate<Note> { $0.title.starts(with: cre) }) == #"title BEGINSWITH[cd] "cre""#)
        #expect(try Self.translated(#Predicate<Note> { $0.subtitle?.starts(with: "P") == true }) == #"subtitle BEGINSWITH "P""#)
    }

    @Test("relationships: optional chaining, objects, nil, ANY, counts")
    func relationships() throws {
        let context = Stack.notebook().context()
        let objects = try TypedNotebook.fill(context)
        let travel = try #require(objects["Travel"]).objectID
        let soup = try #require(objects["#soup"]).objectID
        #expect(try Self.translated(#Predicate<Note> { $0.folder?.name == "Travel" }) == #"folder.name == "Travel""#)
        #expect(try Self.translated(#Predicate<Note> { $0.folder == nil }) == "folder == nil")
        #expect(try Self.translated(#Predicate<Note> { $0.folder != nil }) == "folder != nil")
        #expect(try Self.translated(#Predicate<Note> { $0.folder?.objectID == travel }) == "folder == OBJECT(\(travel.stringRepresentation))")
        #expect(try Self.translated(#Predicate<Note> { $0.tags.contains { $0.label == "soup" } }) == #"ANY tags.label == "soup""#)
        #expect(try Self.translated(#Predicate<Note> { $0.tags.contains { $0.label == "soup" || $0.label.starts(with: "w") } })
                == #"(ANY tags.label == "soup" OR ANY tags.label BEGINSWITH "w")"#)
        #expect(try Self.translated(#Predicate<Note> { $0.tags.contains { $0.objectID == soup } }) == "ANY tags == OBJECT(\(soup.stringRepresentation))")
        #expect(try Self.translated(#Predicate<Note> { $0.tags.count > 1 }) == "tags.@count > 1")
        #expect(try Self.translated(#Predicate<Note> { $0.tags.isEmpty }) == "tags.@count == 0")
    }

    @Test("&&, ||, !, Boolean attributes and constants")
    func compounds() throws {
        #expect(try Self.translated(#Predicate<Note> { $0.pinned }) == "pinned == YES")
        #expect(try Self.translated(#Predicate<Note> { !$0.pinned }) == "NOT (pinned == YES)")
        #expect(try Self.translated(#Predicate<Note> { $0.pinned && $0.pages > 3 && $0.title != "" }) == #"(pinned == YES AND pages > 3 AND title != "")"#)
        #expect(try Self.translated(#Predicate<Note> { $0.pages < 3 || $0.pages > 10 || $0.pinned }) == "(pages < 3 OR pages > 10 OR pinned == YES)")
        #expect(try Self.translated(#Predicate<Note> { !($0.pages < 3 || $0.pinned) }) == "NOT (pages < 3 OR pinned == YES)")
        #expect(try Self.translated(#Predicate<Note> { _ in true }) == "TRUEPREDICATE")
    }

    @Test("what has no counterpart throws, naming the sub-expression and the fix")
    func unsupported() throws {
        func message(_ predicate: Predicate<Note>) -> String {
            do { _ = try ObjectPredicate(predicate); return "no error" }
            catch { return error.description }
        }
        let arithmetic = message(#Predicate<Note> { $0.pages * 2 > 10 })
        #expect(arithmetic.contains("Arithmetic"), "\(arithmetic)")
        #expect(arithmetic.contains("allowsInMemoryEvaluation"), "\(arithmetic)")
        let count = message(#Predicate<Note> { $0.title.count > 3 })
        #expect(count.contains("KeyPath") && count.contains("String's count"), "\(count)")
        let coalesce = message(#Predicate<Note> { ($0.subtitle ?? "") == "green" })
        #expect(coalesce.contains("NilCoalesce"), "\(coalesce)")
        let computed = message(#Predicate<Note> { $0.shout == "KYOTO" })
        #expect(computed.contains("not a stored property of Note") && computed.contains("propertyKeys"), "\(computed)")
        let conjunctionInAny = message(#Predicate<Note> { $0.tags.contains { $0.label == "a" && $0.label != "b" } })
        #expect(conjunctionInAny.contains("Conjunction") && conjunctionInAny.contains("contains(where:)"), "\(conjunctionInAny)")
    }

    @Test("sort descriptors become store sorts; a key path that is not stored throws")
    func sorts() throws {
        #expect(try FetchSortDescriptor(SortDescriptor(\Note.title)) == FetchSortDescriptor("title"))
        #expect(try FetchSortDescriptor(SortDescriptor(\Note.pages, order: .reverse)) == FetchSortDescriptor("pages", ascending: false))
        #expect(try FetchSortDescriptor(SortDescriptor(\Note.title, comparator: .lexical, order: .reverse)) == FetchSortDescriptor("title", ascending: false))
        #expect(try FetchSortDescriptor(SortDescriptor(\Note.subtitle)) == FetchSortDescriptor("subtitle"))
        #expect(throws: TypedQueryError.self) { try FetchSortDescriptor(SortDescriptor(\Note.shout)) }
    }
}

extension Stack {
    /// An in-memory stack with the notebook model.
    static func notebook() -> Stack {
        do { return try Stack(model: TypedNotebook.model) }
        catch { preconditionFailure("\(error)") }
    }
}
