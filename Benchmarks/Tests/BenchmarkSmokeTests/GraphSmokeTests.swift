import Foundation
import Testing

/// A short `recipes-bench graph` run on a small book, so the mode keeps working: the string
/// and typed fetches agree (the mode fails otherwise), the property access figures are there,
/// and, with the root package's debug `recipes`, two cross-process observations.
@Suite("recipes-bench graph smoke run")
struct GraphSmokeTests {
    @Test func aSmallBookFetchesTheSameByStringAndTyped() throws {
        var arguments = ["graph", "--recipes", "50", "--save-every", "25", "--repeats", "3", "--property-objects", "20", "--json"]
        arguments += SmokeRun.hasRecipes
            ? ["--observe-runs", "2", "--recipes-executable", SmokeRun.recipes.resolvingSymlinksInPath().path]
            : ["--observe-runs", "0"]
        let (status, data) = try SmokeRun.bench(arguments)
        let text = String(decoding: data, as: UTF8.self)
        #expect(status == 0, "\(text)")
        let record = try SmokeRun.record(data)
        #expect(record["benchmark"] as? String == "graph")
        let figures = try #require(record["figures"] as? [String: Any])
        var names = ["typed_by_type_vs_string", "typed_ingredients_vs_string", "property_read_typed_vs_string", "property_write_typed_vs_string"]
        if SmokeRun.hasRecipes { names += ["observe_child_wall_ms", "observe_from_child_start_ms"] }
        for name in names {
            #expect(((figures[name] as? NSNumber)?.doubleValue ?? 0) > 0, "\(name) in \(text)")
        }
        #expect((figures["property_objects"] as? NSNumber)?.intValue == 20)
    }
}
