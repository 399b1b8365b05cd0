@testable import CouchServer
import DocumentFormat
import Testing

/// `_explain`'s selector in CouchDB's normal form, for selectors of several members (the
/// differential suite sends one-member ones, as CouchDB keeps the order the client sent).
/// The expected forms are what CouchDB 3.4.3 answered for the same selectors sent in key order.
@Suite struct ExplainedSelectorTests {
    @Test("Several conditions become an $and of one-condition objects, in key order")
    func severalConditions() {
        #expect(ExplainedSelector.normalised(["a": 1, "b": "x"])
            == ["$and": [["a": ["$eq": 1]], ["b": ["$eq": "x"]]]])
        #expect(ExplainedSelector.normalised(["a": ["$gt": 1, "$lt": 5]])
            == ["$and": [["a": ["$gt": 1]], ["a": ["$lt": 5]]]])
        #expect(ExplainedSelector.normalised(["a": ["$exists": true], "b": ["$regex": "x"]])
            == ["$and": [["a": ["$exists": true]], ["b": ["$regex": "x"]]]])
    }

    @Test("Shorthands become $eq, nested fields are dotted, empty objects and arrays are values")
    func shorthands() {
        #expect(ExplainedSelector.normalised(["type": "Person"]) == ["type": ["$eq": "Person"]])
        #expect(ExplainedSelector.normalised(["a": ["b": 1]]) == ["a.b": ["$eq": 1]])
        #expect(ExplainedSelector.normalised(["a": [:]]) == ["a": ["$eq": [:]]])
        #expect(ExplainedSelector.normalised(["a": [1, 2]]) == ["a": ["$eq": [1, 2]]])
        #expect(ExplainedSelector.normalised([:]) == [:])
        #expect(ExplainedSelector.normalised(["a": ["$elemMatch": ["b": 1]]]) == ["a": ["$elemMatch": ["b": ["$eq": 1]]]])
        #expect(ExplainedSelector.normalised(["a": ["$allMatch": ["$gt": 1]]]) == ["a": ["$allMatch": ["": ["$gt": 1]]]])
    }

    @Test("$not and $nor are pushed down onto the conditions")
    func negations() {
        #expect(ExplainedSelector.normalised(["$not": ["a": 1, "b": 2]])
            == ["$or": [["a": ["$ne": 1]], ["b": ["$ne": 2]]]])
        #expect(ExplainedSelector.normalised(["$not": ["$or": [["a": 1], ["b": 2]]]])
            == ["$and": [["a": ["$ne": 1]], ["b": ["$ne": 2]]]])
        #expect(ExplainedSelector.normalised(["a": ["$not": ["$gt": 1]]]) == ["a": ["$lte": 1]])
        #expect(ExplainedSelector.normalised(["a": ["$not": ["$in": [1]]]]) == ["a": ["$nin": [1]]])
        #expect(ExplainedSelector.normalised(["$not": ["$not": ["a": 1]]]) == ["a": ["$eq": 1]])
        #expect(ExplainedSelector.normalised(["$nor": [["a": 1]]]) == ["$and": [["a": ["$ne": 1]]]])
    }
}
