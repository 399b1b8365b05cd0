import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore

/// A sort by a Boolean attribute written with a key path (`FetchSortDescriptor(\Chore.done)`,
/// since Foundation's `SortDescriptor` takes no `Bool`) is the string-keyed sort: the same
/// descriptor, so the SQLite store gets the same query (the same plans), and the same order.
@Suite("Typed sorts by Boolean attributes")
struct TypedBoolSortTests {
    static let model = TestSupport.model("""
        <entity name="Chore">
            <attribute name="title" attributeType="String"/>
            <attribute name="done" attributeType="Boolean" defaultValueString="NO" indexed="YES"/>
            <attribute name="flagged" optional="YES" attributeType="Boolean"/>
        </entity>
        """, name: "Chores")

    /// A hand-written view of a chore, as the generated ones are.
    struct Chore: EntityObject {
        static let entityName = "Chore"
        let object: ManagedObject
        init(unchecked object: ManagedObject) { self.object = object }
        static var propertyKeys: [PartialKeyPath<Chore>: String] { [\.title: "title", \.done: "done", \.flagged: "flagged"] }
        var title: String { (try? object.value(forKey: "title", as: String.self)) ?? "" }
        var done: Bool { (try? object.value(forKey: "done", as: Bool.self)) ?? false }
        var flagged: Bool? { (try? object.value(forKey: "flagged", as: Bool.self)) ?? nil }
        /// Not stored: no key in `propertyKeys`.
        var isOpen: Bool { !done }
    }

    /// Five chores saved in a SQLite store, out of every order the tests ask for.
    static func chores() throws -> DocumentStack {
        let stack = try DocumentStack(model: model)
        let context = stack.context("writer")
        let rows: [(String, Bool, Bool?)] = [("c", true, nil), ("a", false, true), ("e", true, false), ("b", false, nil), ("d", false, false)]
        for (title, done, flagged) in rows {
            let chore = try context.insert("Chore")
            try chore.setValue(title, forKey: "title")
            try chore.setValue(done, forKey: "done")
            try chore.setValue(flagged, forKey: "flagged")
        }
        try context.save()
        return stack
    }

    /// The titles a fetch sorted by `sorts` returns.
    static func titles(_ stack: DocumentStack, _ sorts: [FetchSortDescriptor]) throws -> [String] {
        let reader = stack.context("reader")
        return try withExtendedLifetime(reader) { try Chore.fetch(in: reader, sortedBy: sorts).map(\.title) }
    }

    /// The plans of a request sorted by `sorts`, as comparable strings.
    static func plans(_ stack: DocumentStack, _ sorts: [FetchSortDescriptor]) throws -> [String] {
        try stack.store.explainQueryPlans(StoreFetchRequest(entityNames: ["Chore"], sortDescriptors: sorts))
            .map { "\($0.reading): \($0.steps.joined(separator: "; "))" }
    }

    @Test("a key-path sort by a Bool is the string sort: equal descriptors, equal plans, false before true and .reverse the other way")
    func requiredBool() throws {
        let stack = try Self.chores()
        let byTitle = try FetchSortDescriptor(SortDescriptor(\Chore.title))
        let forward = try FetchSortDescriptor(\Chore.done)
        let reverse = try FetchSortDescriptor(\Chore.done, order: .reverse)
        #expect(forward == FetchSortDescriptor("done"))
        #expect(reverse == FetchSortDescriptor("done", ascending: false))
        #expect(reverse.description == "done DESC")

        let forwardTitles = try Self.titles(stack, [forward, byTitle])
        #expect(forwardTitles == ["a", "b", "d", "c", "e"])
        let reverseTitles = try Self.titles(stack, [reverse, byTitle])
        #expect(reverseTitles == ["c", "e", "a", "b", "d"])
        #expect(try Self.titles(stack, [reverse, byTitle]) == (try Self.titles(stack, [FetchSortDescriptor("done", ascending: false), FetchSortDescriptor("title")])))
        let plans = try Self.plans(stack, [reverse, byTitle])
        #expect(!plans.isEmpty)
        #expect(plans == (try Self.plans(stack, [FetchSortDescriptor("done", ascending: false), FetchSortDescriptor("title")])))
    }

    @Test("an optional Bool sorts nil first, then false, then true, as its string key does")
    func optionalBool() throws {
        let stack = try Self.chores()
        let byTitle = FetchSortDescriptor("title")
        let flagged = try FetchSortDescriptor(\Chore.flagged)
        #expect(flagged == FetchSortDescriptor("flagged"))
        let flaggedTitles = try Self.titles(stack, [flagged, byTitle])
        #expect(flaggedTitles == ["b", "c", "d", "e", "a"])
        let flaggedFirst = try FetchSortDescriptor(\Chore.flagged, order: .reverse)
        let flaggedFirstTitles = try Self.titles(stack, [flaggedFirst, byTitle])
        #expect(flaggedFirstTitles == ["a", "d", "e", "b", "c"])
        #expect(try Self.plans(stack, [flaggedFirst, byTitle]) == (try Self.plans(stack, [FetchSortDescriptor("flagged", ascending: false), byTitle])))
    }

    @Test("a Bool key path that names no stored attribute is refused, naming the fix")
    func computedPropertyRefused() {
        let error = #expect(throws: TypedQueryError.self) { try FetchSortDescriptor(\Chore.isOpen, order: .reverse) }
        guard case .unsupportedSortDescriptor(_, let reason)? = error else {
            Issue.record("expected unsupportedSortDescriptor, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("propertyKeys"))
    }
}
