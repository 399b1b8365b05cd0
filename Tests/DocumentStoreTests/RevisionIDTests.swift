import Foundation
import Testing
@testable import DocumentStore
import DocumentFormat

@Suite struct RevisionIDTests {
    @Test func parsesAndPrints() throws {
        let rev = try #require(RevisionID("3-abc123"))
        #expect(rev.generation == 3)
        #expect(rev.hash == "abc123")
        #expect(rev.description == "3-abc123")
    }

    @Test(arguments: ["", "abc", "0-abc", "-abc", "3-", "x-1"])
    func refusesMalformed(_ text: String) {
        #expect(RevisionID(text) == nil)
    }

    @Test func ordersByGenerationThenHash() throws {
        let a = try #require(RevisionID("2-aaa"))
        let b = try #require(RevisionID("2-bbb"))
        let c = try #require(RevisionID("10-000"))
        #expect(a < b)
        #expect(b < c)
        #expect([c, a, b].max() == c)
    }

    @Test func jsonValueRoundTripsIntegersExactly() throws {
        let value: JSONValue = ["bits": .int(Int64.min), "d": 1.5, "s": "é", "n": nil, "b": true, "a": [1, 2]]
        let data = try JSONEncoder().encode(value)
        let back = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(back == value)
    }
}
