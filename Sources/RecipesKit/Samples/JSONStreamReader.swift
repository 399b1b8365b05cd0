import DocumentFormat
import Foundation

/// Reads a JSON file a value at a time: the members of its root object, and the elements of
/// an array member one by one, holding only a chunk of the text and the value being read.
///
/// A large sample set is one object whose `recipes` array holds everything; parsing it into
/// one tree holds the whole set several times over. This reader walks the root object and
/// that array itself, strictly (the same grammar and whitespace as `JSONValue.parse`); the
/// store's parser finds where each member value or array element ends and parses it, so a
/// file it reads whole gives the same values the tree would. It goes two levels deep only: `beginObject()`, then
/// `nextKey()` and `nextValue()` or `beginArray()` with `nextElement()`, then `finish()`.
final class JSONStreamReader {
    private let handle: FileHandle
    private let chunkSize: Int
    /// Text read and not yet consumed starts at `index`; bytes before it are dropped now and then.
    private var buffer: [UInt8] = []
    private var index = 0
    /// Bytes dropped from the front of `buffer` so far, for offsets in errors.
    private var dropped = 0
    private var endOfFile = false
    /// One entry per open container: whether it has had a member yet (so a comma is due).
    private var hasMembers: [Bool] = []

    /// Opens `url` for reading in chunks of `chunkSize` bytes.
    init(url: URL, chunkSize: Int = 1 << 20) throws(JSONStreamError) {
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .unreadable(String(describing: error))
        }
        self.chunkSize = max(1, chunkSize)
    }

    deinit {
        try? handle.close()
    }

    /// Reads the root object's opening brace.
    func beginObject() throws(JSONStreamError) {
        skipWhitespaceAndRefill()
        try expect(UInt8(ascii: "{"), "the file must hold a JSON object")
        hasMembers.append(false)
    }

    /// The next key of the open object and its colon, leaving the reader on the value; `nil`
    /// (and the object closed) at its closing brace.
    func nextKey() throws(JSONStreamError) -> String? {
        compact()
        skipWhitespaceAndRefill()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            hasMembers.removeLast()
            return nil
        }
        if hasMembers[hasMembers.count - 1] {
            try expect(UInt8(ascii: ","), "expected ',' or '}' after an object member")
            skipWhitespaceAndRefill()
        }
        hasMembers[hasMembers.count - 1] = true
        guard try peek() == UInt8(ascii: "\""), case .string(let key) = try nextValue() else {
            throw failure("an object key must be a string")
        }
        skipWhitespaceAndRefill()
        try expect(UInt8(ascii: ":"), "expected ':' after an object key")
        return key
    }

    /// Reads the value the reader is on (a whole member value or array element).
    func nextValue() throws(JSONStreamError) -> JSONValue {
        skipWhitespaceAndRefill()
        let start = index
        var end = valueEnd(from: start)
        // A value running to the last byte held may go on in the next chunk (a number, or a
        // string or container not closed yet): read on until it ends inside the buffer or the
        // file ends.
        while end.map({ $0 >= buffer.count }) ?? true, refill() { end = valueEnd(from: start) }
        guard let end else { throw failure("the text ends inside a value") }
        let value: JSONValue
        do {
            value = try buffer.withUnsafeBufferPointer { all in
                try JSONValue.parse(UnsafeBufferPointer(rebasing: all[start..<end]))
            }
        } catch {
            throw failure("invalid JSON value: \(error)")
        }
        index = end
        return value
    }

    /// Opens the array the reader is on; `false` (reading nothing) when the value is not an
    /// array.
    func beginArray() throws(JSONStreamError) -> Bool {
        skipWhitespaceAndRefill()
        guard try peek() == UInt8(ascii: "[") else { return false }
        index += 1
        hasMembers.append(false)
        return true
    }

    /// The next element of the open array; `nil` (and the array closed) at its closing bracket.
    func nextElement() throws(JSONStreamError) -> JSONValue? {
        compact()
        skipWhitespaceAndRefill()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            hasMembers.removeLast()
            return nil
        }
        if hasMembers[hasMembers.count - 1] {
            try expect(UInt8(ascii: ","), "expected ',' or ']' after an array element")
        }
        hasMembers[hasMembers.count - 1] = true
        return try nextValue()
    }

    /// Checks that nothing but whitespace follows the closed root object.
    func finish() throws(JSONStreamError) {
        skipWhitespaceAndRefill()
        guard hasMembers.isEmpty, index == buffer.count else { throw failure("unexpected text after the JSON value") }
    }

    // MARK: - Bytes

    /// Appends the next chunk of the file; `false` at its end.
    private func refill() -> Bool {
        guard !endOfFile else { return false }
        guard let chunk = try? handle.read(upToCount: chunkSize), !chunk.isEmpty else {
            endOfFile = true
            return false
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// Drops the consumed text once it is a chunk long, so the buffer holds about a chunk
    /// plus the value being read.
    private func compact() {
        guard index >= chunkSize else { return }
        buffer.removeSubrange(0..<index)
        dropped += index
        index = 0
    }

    /// The byte at `position`, reading more of the file as needed; `nil` past its end.
    private func byte(at position: Int) -> UInt8? {
        while position >= buffer.count {
            guard refill() else { return nil }
        }
        return buffer[position]
    }

    private func peek() throws(JSONStreamError) -> UInt8 {
        guard let byte = byte(at: index) else { throw failure("the text ends where more was expected") }
        return byte
    }

    private func expect(_ expected: UInt8, _ message: String) throws(JSONStreamError) {
        guard byte(at: index) == expected else { throw failure(message) }
        index += 1
    }

    private func skipWhitespaceAndRefill() {
        while let byte = byte(at: index), Self.isWhitespace(byte) { index += 1 }
    }

    /// Where the value starting at `start` ends (exclusive) in the text held, found by the
    /// store's parser; `nil` when the text held ends first.
    private func valueEnd(from start: Int) -> Int? {
        buffer.withUnsafeBufferPointer { JSONParser.endOfValue(in: $0, from: start) }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private func failure(_ message: String) -> JSONStreamError {
        .unexpected(message, offset: dropped + index)
    }
}
