import ArgumentParser
import Foundation

/// The options the benchmarks against a live CouchDB share (`couch-replicator`,
/// `serve-replicate`): which CouchDB, the shape of the generated documents' attachments, and
/// which `recipes` to serve with.
struct CouchDBBenchmarkOptions: ParsableArguments {
    @Option(help: "The CouchDB server, with an administrator's credentials (default: $COUCHDB_URL).")
    var couchdb: String?

    @Option(help: "One document in this many carries an attachment.")
    var attachmentEvery = 10

    @Option(help: "Attachment size in bytes.")
    var attachmentBytes = 20 * 1024

    @Option(help: "Path of the `recipes` executable (default: next to this program).")
    var server: String?

    @Flag(help: "Print a JSON object with the figures as the last line.")
    var json = false

    /// What `discussion` says about the CouchDB a command needs.
    static let discussion = "Needs a live CouchDB 3.x: --couchdb URL, else the COUCHDB_URL environment variable (http://ADMIN:PASSWORD@HOST:PORT)."

    func validate() throws {
        guard attachmentEvery > 0, attachmentBytes >= 0 else {
            throw ValidationError("--attachment-every must be positive, --attachment-bytes 0 or more")
        }
    }

    /// The CouchDB to run against: `--couchdb`, else `COUCHDB_URL`.
    func couchAdmin() throws -> CouchAdmin {
        guard let text = couchdb ?? ProcessInfo.processInfo.environment["COUCHDB_URL"], !text.isEmpty else {
            throw ValidationError("no CouchDB: pass --couchdb http://ADMIN:PASSWORD@HOST:PORT or set COUCHDB_URL")
        }
        return try CouchAdmin(text)
    }

    /// The `recipes` executable to start `serve` from.
    func recipesExecutable() throws -> String {
        try RecipesExecutable.path(server, option: "--server")
    }
}
