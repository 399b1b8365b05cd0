public import Foundation

/// The sample sets shipped with RecipesKit (`SampleData/` in the repository), found through
/// the module's resource bundle so the `recipes` binary finds them from any working
/// directory.
public enum BundledSampleSets {
    /// The folder holding the shipped `*.json` sets and their images.
    public static var directory: URL {
        Bundle.module.url(forResource: "SampleData", withExtension: nil)
            ?? (Bundle.module.resourceURL ?? Bundle.module.bundleURL).appendingPathComponent("SampleData", isDirectory: true)
    }

    /// Every shipped set, validated, sorted by file name.
    public static func loadAll() throws(SampleSetError) -> [SampleSet] {
        try SampleSetLoader().loadAll(in: directory)
    }

    /// The shipped set called `name`, or `nil` if there is none.
    public static func load(named name: String) throws(SampleSetError) -> SampleSet? {
        try loadAll().first { $0.name == name }
    }
}
