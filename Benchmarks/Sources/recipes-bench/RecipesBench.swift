import ArgumentParser

/// `recipes-bench`: release-build benchmarks that print figures as ratios against a baseline
/// measured in the same run. Each area of the project adds its own subcommand here.
@main
struct RecipesBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recipes-bench",
        abstract: "Benchmarks of the Recipes datastore and sync, against baselines measured in the same run.",
        subcommands: [StoreBenchmark.self, GraphBenchmark.self, SyncBenchmark.self, CouchReplicatorBenchmark.self, ServeReplicateBenchmark.self, CLIBenchmark.self, WebBenchmark.self, FuzzBenchmark.self,
                      CrashBenchmark.self, ChaosBenchmark.self, LoadBenchmark.self, LiveBenchmark.self, NotesWriter.self,
                      HTTPClientsBenchmark.self, HTTPClientsReplayCommand.self, BenchmarkReport.self]
    )
}
