import CouchProtocol
import DocumentStore
import Testing
import DocumentFormat

/// The one `_revs_diff` message: what a server reads and writes, and what a client writes and
/// reads, with the expected JSON written out.
@Suite struct RevsDiffMessageTests {
    @Test func aRequestKeepsTextsThatAreNotRevisionsAndRefusesOtherShapes() throws {
        let request = try RevsDiffMessage.Request(json: ["a": ["1-abc", "not-a-rev"], "b": []])
        #expect(request.revisions == ["a": [RevisionID("1-abc")!], "b": []])
        #expect(request.unparseable == ["a": ["not-a-rev"]])
        #expect(request.json == ["a": ["1-abc", "not-a-rev"], "b": []])
        #expect(throws: CouchError.self) { try RevsDiffMessage.Request(json: ["a": "1-abc"]) }
        #expect(throws: CouchError.self) { try RevsDiffMessage.Request(json: ["a": [1]]) }
    }

    @Test func aReplyListsOnlyWhatIsMissingWithUnparseableTextsAfterTheRest() throws {
        let entries = [
            "a": RevsDiffEntry(missing: [RevisionID("3-ccc")!], possibleAncestors: [RevisionID("2-bbb")!]),
            "b": RevsDiffEntry(missing: [], possibleAncestors: []),
        ]
        let reply = RevsDiffMessage.Response(entries: entries, unparseable: ["a": ["junk"], "c": ["x"]])
        let expected: JSONValue = [
            "a": ["missing": ["3-ccc", "junk"], "possible_ancestors": ["2-bbb"]],
            "c": ["missing": ["x"]],
        ]
        #expect(reply.json == expected)
        // A client reading a reply with an unparseable revision refuses it whole.
        #expect(throws: ReplyShapeError.self) { try RevsDiffMessage.Response(json: expected) }
        let clean = RevsDiffMessage.Response(entries: ["a": entries["a"]!])
        #expect(try RevsDiffMessage.Response(json: clean.json) == clean)
    }
}
