public import Foundation

/// The bytes of one sample picture together with their MIME type.
///
/// A value can only be made from bytes whose signature is a supported format, so anything
/// holding a `SampleImage` can write it as an attachment without checking it again.
public struct SampleImage: Codable, Sendable, Equatable, Hashable {
    /// The encoded image, exactly as read from the sample file or store.
    public let data: Data
    /// The encoding detected from `data`'s signature.
    public let format: SampleImageFormat

    /// The MIME type to record with the bytes (`image/png` or `image/jpeg`).
    public var mimeType: String { format.mimeType }

    /// Wraps `data` if it is a PNG or JPEG image; `nil` otherwise.
    public init?(data: Data) {
        guard let format = SampleImageFormat.detect(data) else { return nil }
        self.data = data
        self.format = format
    }

    private enum CodingKeys: String, CodingKey {
        case data
        case mimeType
    }

    /// Decodes `{"data": <base64>, "mimeType": …}` and re-checks the signature, so a decoded
    /// value is as trustworthy as one built from bytes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let data = try container.decode(Data.self, forKey: .data)
        guard let format = SampleImageFormat.detect(data) else {
            throw DecodingError.dataCorruptedError(
                forKey: .data, in: container,
                debugDescription: "image bytes are neither PNG nor JPEG")
        }
        self.data = data
        self.format = format
    }

    /// Encodes as `{"data": <base64>, "mimeType": …}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
        try container.encode(mimeType, forKey: .mimeType)
    }
}
