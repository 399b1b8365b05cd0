public import Foundation
import DocumentFormat

/// An attachment change supplied with a local write; attachments not named are inherited from
/// the parent revision unchanged.
public enum AttachmentChange: Sendable {
    /// Adds or replaces the attachment `name` with these bytes.
    case put(name: String, contentType: String, data: Data)
    /// Removes the attachment `name`; removing an attachment the parent lacks changes nothing.
    case remove(name: String)
}
