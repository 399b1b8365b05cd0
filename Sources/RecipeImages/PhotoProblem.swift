/// Why an uploaded photo was refused, with a `description` that tells the person uploading it
/// what went wrong and what to do, so the web app can show it as it is.
public enum PhotoProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The upload contained no bytes at all.
    case empty
    /// The upload is larger than the accepted number of bytes.
    case tooLarge(bytes: Int, limit: Int)
    /// The content is not a JPEG or PNG; `detected` names what it looks like ("GIF", "WebP",
    /// "HEIC", "PDF", "text", …) or is nil when it is not recognised.
    case notJPEGOrPNG(detected: String?)
    /// The content starts like a JPEG or PNG but is truncated or corrupt: decoding failed or
    /// stopped early. `reason` is the decoder's own explanation.
    case damaged(format: PhotoFormat, reason: String)
    /// The header declares more pixels than accepted; refused before any pixel memory is taken.
    case tooManyPixels(width: Int, height: Int, limit: Int)

    /// One sentence for the person uploading: what is wrong with the photo and what to do.
    public var description: String {
        switch self {
        case .empty:
            return "the photo is empty (0 bytes) — choose a photo and upload it again"
        case let .tooLarge(bytes, limit):
            return "the photo is \(bytes) bytes; at most \(limit) are accepted — choose a smaller photo"
        case let .notJPEGOrPNG(detected?) where detected == "text":
            return "the file contains text, not a photo; only JPEG and PNG photos are accepted — choose a JPEG or PNG photo"
        case let .notJPEGOrPNG(detected?):
            return "the file is a \(detected) file, but only JPEG and PNG photos are accepted — convert it to JPEG or PNG, or choose another photo"
        case .notJPEGOrPNG(nil):
            return "the file is not a photo format we recognise; only JPEG and PNG photos are accepted — choose a JPEG or PNG photo"
        case let .damaged(format, reason):
            return "the \(format.displayName) photo is damaged or incomplete (\(reason)) — upload it again or choose another photo"
        case let .tooManyPixels(width, height, limit):
            return "the photo is \(width)×\(height) pixels; at most \(limit) pixels are accepted — choose a photo with a lower resolution"
        }
    }
}
