import Foundation
import Testing

/// A short `recipes-bench web` run against the debug `recipes web` on a small book, so the
/// mode keeps working.
@Suite("recipes-bench web smoke run")
struct WebSmokeTests {
    @Test(.enabled(if: SmokeRun.hasRecipes, "needs the root package's debug build of recipes: run swift build at the root first"))
    func aSmallBookServesAndFollowsChanges() throws {
        let (status, data) = try SmokeRun.bench([
            "web", "--recipes", "60", "--runs", "5", "--clients", "2", "--seconds", "1", "--changes", "2", "--idle-seconds", "1",
            "--recipes-executable", SmokeRun.recipes.resolvingSymlinksInPath().path, "--json",
        ])
        let text = String(decoding: data, as: UTF8.self)
        #expect(status == 0, "\(text)")
        let record = try SmokeRun.record(data)
        #expect(record["benchmark"] as? String == "web")
        let figures = try #require(record["figures"] as? [String: Any])
        #expect(figures["recipes"] as? Int == 60)
        for name in ["anchorShowMilliseconds", "bookPageServerMilliseconds", "pagesPerSecond", "liveEventMilliseconds"] {
            #expect((figures[name] as? Double ?? Double(figures[name] as? Int ?? 0)) > 0, "\(name) in \(text)")
        }
        #expect(figures["gridImagesAllThumbnails"] as? Bool == true)
    }
}
