public import Foundation

/// What `show` tells about a picture: its size and format, not its bytes.
public struct ImageInfo: Sendable, Equatable, Codable {
    /// Size in bytes.
    public var bytes: Int
    /// `image/png`, `image/jpeg`, or `application/octet-stream` when unrecognised.
    public var mimeType: String

    /// Describes `data`.
    public init(data: Data) {
        bytes = data.count
        mimeType = SampleImageFormat.detect(data)?.mimeType ?? "application/octet-stream"
    }
}
