import Foundation
import Testing

/// A short `recipes-bench serve-replicate` run (`POST /_replicate` from a live CouchDB into
/// the debug `recipes serve`, next to our own pull), so the mode keeps working.
@Suite("recipes-bench serve-replicate smoke run")
struct ServeReplicateSmokeTests {
    static let couchDB = ProcessInfo.processInfo.environment["COUCHDB_URL"] ?? ""

    @Test(.enabled(if: SmokeRun.hasRecipes, "needs the root package's debug build of recipes: run swift build at the root first"),
          .enabled(if: !couchDB.isEmpty, "needs a live CouchDB: set COUCHDB_URL"))
    func twoRoundsCopyEveryDocumentBothWays() throws {
        let (status, data) = try SmokeRun.bench(["serve-replicate", "--docs", "120", "--attachment-every", "10", "--attachment-bytes", "2048",
                                                 "--rounds", "2", "--server", SmokeRun.recipes.resolvingSymlinksInPath().path, "--json"])
        let text = String(decoding: data, as: UTF8.self)
        #expect(status == 0, "\(text)")
        let record = try SmokeRun.record(data)
        #expect(record["benchmark"] as? String == "serve-replicate")
        let figures = try #require(record["figures"] as? [String: Any])
        // The run checks that both copies hold every document, or exits non-zero.
        #expect(figures["documents"] as? Int == 120)
        #expect(figures["rounds"] as? Int == 2)
        for name in ["serve_replicate_docs_per_s", "our_pull_docs_per_s", "serve_replicate_vs_our_pull"] {
            #expect((figures[name] as? Double ?? Double(figures[name] as? Int ?? 0)) > 0, "\(name) in \(text)")
        }
        // The administrator's password never appears in what the run prints.
        if let password = URLComponents(string: Self.couchDB)?.password, !password.isEmpty {
            #expect(!text.contains(password))
        }
    }
}
