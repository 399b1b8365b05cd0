/// A photo format the app accepts, identified from the file's content (never its name), so the
/// server knows how to decode an upload and which `Content-Type` to serve it with.
public enum PhotoFormat: String, Sendable, CaseIterable {
    /// JPEG (JFIF or Exif), what phone cameras produce.
    case jpeg
    /// PNG, used for screenshots and images with transparency.
    case png

    /// The MIME type to send in a `Content-Type` header when serving a photo of this format.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        }
    }

    /// The name people know the format by ("JPEG", "PNG"), used in messages shown to them.
    public var displayName: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        }
    }
}
