import Foundation

/// An HTML page written to its own temporary directory and opened as `file://`, so the
/// tests need no web server.
struct TestPage: Sendable {
    /// The directory holding the page (and any other files a test writes).
    let directory: URL
    /// The page's `file://` URL.
    let url: String

    /// Writes `html` as `index.html` in a fresh temporary directory.
    init(_ html: String) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("browser-support-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("index.html")
        try Data(html.utf8).write(to: file)
        url = file.absoluteString
    }

    /// Writes `data` next to the page and returns its absolute path.
    func writeFile(_ name: String, _ data: Data) throws -> String {
        let file = directory.appendingPathComponent(name)
        try data.write(to: file)
        return file.path
    }

    /// Removes the directory.
    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}
