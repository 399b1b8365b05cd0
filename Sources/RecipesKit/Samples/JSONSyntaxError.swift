import DocumentFormat
import Foundation

/// Why a byte sequence is not JSON, with the line and column of the fault: the store's own
/// parser names the fault and its byte offset, which this turns into a line and a column
/// counted in characters, as an editor shows them.
struct JSONSyntaxError: Error, Equatable, Sendable {
    var detail: String
    var line: Int?
    var column: Int?

    init(detail: String, line: Int?, column: Int?) {
        self.detail = detail
        self.line = line
        self.column = column
    }

    /// The fault `error` names in `data`, located when the parser gave its offset.
    init(_ error: any Error, data: Data) {
        if let fault = JSONParser.syntaxFault(in: error) {
            let position = Self.position(ofByte: fault.offset, in: data)
            self.init(detail: fault.reason, line: position.line, column: position.column)
        } else {
            self.init(detail: String(describing: error), line: nil, column: nil)
        }
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
