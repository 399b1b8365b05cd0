/// What a fuzz run sets up in the server before the hostile requests, so they can reach
/// existing databases, documents, revisions and attachments rather than stopping at 404.
struct FuzzFixture {
    /// The administrator the server was started with.
    var user: String
    /// Its password.
    var password: String
    /// Databases that exist.
    var databases: [String]
    /// Documents that exist in every one of `databases`, with their current revision.
    var documents: [(id: String, rev: String)]
    /// The attachment stored on the first document.
    var attachmentName: String
}
