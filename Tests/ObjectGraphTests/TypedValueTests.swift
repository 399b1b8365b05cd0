import Foundation
import Testing
@testable import ObjectGraph

/// `ManagedObject`'s typed accessors, which the generated entity types are built on.
@Suite("Typed attribute access")
struct TypedValueTests {
    @Test("values read back in their Swift types; nil clears; a required value that is missing throws")
    func roundTrip() throws {
        let context = try Stack().context()
        let line = try context.insert("Ingredient")
        #expect(try line.value(forKey: "displayOrder", as: Int16.self) == 0)
        try line.setValue(Int16(7), forKey: "displayOrder")
        #expect(try line.value(forKey: "displayOrder", as: Int16.self) == 7)
        try line.setValue(String?.none, forKey: "name")
        #expect(try line.value(forKey: "name", as: String.self) == nil)
        #expect(try line.value(forKey: "name", as: String.self) == nil)
        try line.setValue("flour", forKey: "name")
        #expect(try line.value(forKey: "name", as: String.self) == "flour")
    }

    @Test("reading an attribute as a Swift type that does not fit it throws a type mismatch")
    func mismatch() throws {
        let context = try Stack().context()
        let line = try context.insert("Ingredient")
        try line.setValue("flour", forKey: "name")
        do {
            _ = try line.value(forKey: "name", as: Int16.self)
            Issue.record("a String attribute was read as Int16")
        } catch ObjectGraphError.typeMismatch(let entity, let key, let expected, _) {
            #expect(entity == "Ingredient" && key == "name" && expected == .string)
        }
        #expect(throws: ObjectGraphError.self) { try line.setValue(Date(), forKey: "displayOrder") }
    }

    @Test("each Swift type converts to its attribute value and back")
    func conversions() {
        #expect(Int16(attributeValue: .int(40_000)) == nil)
        #expect(Int32(attributeValue: Int32.max.attributeValue) == .max)
        #expect(Int64(attributeValue: .string("1")) == nil)
        #expect(Bool(attributeValue: true.attributeValue) == true)
        #expect(Decimal(attributeValue: Decimal(string: "0.1")!.attributeValue) == Decimal(string: "0.1"))
        #expect(Data(attributeValue: .transformable(Data([1]))) == Data([1]))
        let id = UUID()
        #expect(UUID(attributeValue: id.attributeValue) == id)
        #expect(URL(attributeValue: URL(string: "https://example.org")!.attributeValue)?.absoluteString == "https://example.org")
        #expect(Float(attributeValue: Float(1.5).attributeValue) == 1.5)
        #expect(Double(attributeValue: .float(1.5)) == nil)
    }
}
