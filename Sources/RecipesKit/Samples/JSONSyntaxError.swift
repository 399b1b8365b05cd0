import Foundation

/// Why a byte sequence is not JSON, with the line and column of the fault when Foundation
/// locates it.
///
/// `JSONDecoder` only says "not valid JSON"; `JSONSerialization` names the fault and where
/// it is — as "line N, column M" in newer Foundations, or as a byte offset ("around
/// character N") in swift-corelibs-foundation, which this turns into a line and column.
struct JSONSyntaxError: Error, Equatable, Sendable {
    var detail: String
    var line: Int?
    var column: Int?

    init(detail: String, line: Int?, column: Int?) {
        self.detail = detail
        self.line = line
        self.column = column
    }

    init(_ error: DecodingError, data: Data) {
        var detail: String?
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            let nsError = error as NSError
            detail = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        }
        if detail == nil, case .dataCorrupted(let context) = error {
            detail = context.debugDescription
        }
        let text = detail ?? String(describing: error)
        self.detail = text
        if let position = Self.linePosition(in: text) {
            self.line = position.line
            self.column = position.column
        } else if let offset = Self.byteOffset(in: text) {
            let position = Self.position(ofByte: offset, in: data)
            self.line = position.line
            self.column = position.column
        } else {
            self.line = nil
            self.column = nil
        }
    }

    /// "line N, column M" in Foundation's message.
    static func linePosition(in text: String) -> (line: Int, column: Int)? {
        guard let range = text.range(of: #"line (\d+), column (\d+)"#, options: .regularExpression) else { return nil }
        let numbers = text[range].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count == 2 else { return nil }
        return (numbers[0], numbers[1])
    }

    /// The 0-based byte offset in "around character N".
    static func byteOffset(in text: String) -> Int? {
        guard let range = text.range(of: #"character (\d+)"#, options: .regularExpression) else { return nil }
        return Int(text[range].filter(\.isNumber))
    }

    /// The 1-based line and column (in characters) of byte `offset` of `data`.
    static func position(ofByte offset: Int, in data: Data) -> (line: Int, column: Int) {
        let bytes = Array(data.prefix(max(0, offset)))
        let line = 1 + bytes.count { $0 == UInt8(ascii: "\n") }
        let lineStart = (bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }) ?? 0
        let column = String(decoding: bytes[lineStart...], as: UTF8.self).count + 1
        return (line, column)
    }
}
