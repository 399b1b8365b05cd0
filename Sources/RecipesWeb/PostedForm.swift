import Foundation
import HTTPSupport

/// A form a browser posted, as `multipart/form-data` (the recipe forms, which carry a photo)
/// or `application/x-www-form-urlencoded`: its fields in the order sent, since the order of
/// the ingredient rows is the order of the recipe's lines.
struct PostedForm: Sendable {
    /// One field.
    struct Field: Sendable {
        /// Its `name`.
        var name: String
        /// Its bytes (a file's content for a file input).
        var data: Data
        /// The file name a file input sent; `nil` for other fields.
        var fileName: String?
    }

    /// The fields, in order.
    var fields: [Field]

    /// Why a body could not be read as a form.
    struct FormatError: Error, Sendable, CustomStringConvertible {
        /// One sentence.
        var description: String
    }

    /// Reads `body` sent with `contentType`.
    /// - Throws: ``FormatError`` for another type or a malformed body.
    init(body: Data, contentType: String?) throws(FormatError) {
        let type = HeaderParameters.mediaType(of: contentType ?? "")
        switch type {
        case "multipart/form-data":
            let parts: [MultipartPart]
            do {
                parts = try MultipartBody(data: body, contentType: contentType ?? "").parts
            } catch {
                throw FormatError(description: "the form could not be read: \(error.description)")
            }
            fields = parts.compactMap { part in
                guard let disposition = part.headers["content-disposition"],
                      let name = HeaderParameters.value(of: "name", in: disposition) else { return nil }
                return Field(name: name, data: part.body, fileName: part.fileName)
            }
        case "application/x-www-form-urlencoded":
            guard let text = String(data: body, encoding: .utf8) else {
                throw FormatError(description: "the form is not UTF-8 text")
            }
            fields = URLEncodedForm.pairs(text).map { Field(name: $0.name, data: Data($0.value.utf8), fileName: nil) }
        default:
            throw FormatError(description: "a form must be sent as multipart/form-data or application/x-www-form-urlencoded, not \(type.isEmpty ? "without a type" : type)")
        }
    }

    /// The first field named `name` as text (`nil` when absent; invalid UTF-8 is repaired).
    func text(_ name: String) -> String? {
        fields.first { $0.name == name }.map { String(decoding: $0.data, as: UTF8.self) }
    }

    /// Every field named `name` as text, in order.
    func texts(_ name: String) -> [String] {
        fields.filter { $0.name == name }.map { String(decoding: $0.data, as: UTF8.self) }
    }

    /// The file sent in file input `name`, or `nil` when none was chosen (browsers send an
    /// empty part with an empty file name then).
    func file(_ name: String) -> Data? {
        guard let field = fields.first(where: { $0.name == name }),
              !(field.fileName ?? "").isEmpty || !field.data.isEmpty else { return nil }
        return field.data
    }
}
