/// Writes a pretty-printed JSON array one element at a time, so a long list can go out in
/// pieces as it is read instead of being held whole. The bytes equal what
/// ``JSONOutputEncoder/pretty(_:)`` gives for the finished array (`[]` when empty).
struct JSONArrayStream: Sendable {
    private let indent: Int
    private var count = 0

    /// A stream for an array nested `indent` spaces deep (0 at top level).
    init(indent: Int = 0) {
        self.indent = indent
    }

    /// Appends one element (the opening bracket before the first).
    mutating func append(_ element: some JSONOutputRepresentable, to out: inout [UInt8]) {
        out.append(count == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
        count += 1
        JSONOutputEncoder.newline(indent + 2, to: &out)
        element.appendJSONOutput(indent: indent + 2, to: &out)
    }

    /// Closes the array.
    func finish(to out: inout [UInt8]) {
        if count == 0 {
            out.append(contentsOf: [UInt8(ascii: "["), UInt8(ascii: "]")])
            return
        }
        JSONOutputEncoder.newline(indent, to: &out)
        out.append(UInt8(ascii: "]"))
    }
}
