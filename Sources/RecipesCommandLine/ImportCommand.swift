import ArgumentParser
import DocumentIncrementalStore
import Foundation
import RecipesKit

/// `recipes import`: imports a sample set (JSON) or a Core Data store of the original app.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", _superCommandName: RecipesCommand.name,
        abstract: "Import recipes from a JSON sample set, a folder of them, or a Core Data SQLite store.",
        discussion: """
            Everything is checked before anything is written, and written in one transaction \
            (a set file is read through once to check it, then again a batch at a time while \
            the batches are saved inside that transaction, so memory stays flat however large \
            the set; progress goes to stderr when it takes more than a second). Objects \
            get IDs derived from the set, so importing again changes nothing. --json prints \
            {sets, changes: [{action, entity, id, name, keys}], created, updated, unchanged, skipped}.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The file or folder to import.", valueName: "file"))
    var file: String

    @Flag(name: .customLong("dry-run"), help: "Show what would change without writing anything.")
    var dryRun = false

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    func run() async throws {
        try await reportingFailures {
            // A JSON set file is checked whole here, then read again a batch at a time
            // while it is imported.
            let sets: [any ImportableSampleSet]
            do {
                sets = try SampleSource.importableSets(at: URL(fileURLWithPath: file))
            } catch let error as SampleSourceError {
                throw CommandFailure(message: error.summary)
            }
            let session = try await Session.open(global, purpose: .importing)
            var importer = SampleImporter(context: session.store.container.newContext(name: "import"))
            // A line per object only when it is printed.
            importer.listsChanges = json || dryRun || global.verbose
            let progress = ImportProgress()
            importer.progress = { done, total in progress.report(done: done, total: total) }
            let plan = dryRun ? try importer.plan(sets) : try importer.importSets(sets)
            if !dryRun, try !session.store.seeder.isInitialised {
                try session.store.seeder.markInitialised(.importedByUser)
            }
            if json {
                try Terminal.printJSON(plan)
                return
            }
            if dryRun || global.verbose {
                for change in plan.changes {
                    let verb = dryRun ? "would \(change.action.rawValue)" : change.action.rawValue + "d"
                    Terminal.print("\(verb) \(change.entity) \"\(change.name)\" (\(change.id))" + (change.action == .update ? ": " + change.keys.joined(separator: ", ") : ""))
                }
            }
            Terminal.print(Self.summary(plan, dryRun: dryRun))
        }
    }

    /// One line: what was (or would be) created and updated.
    static func summary(_ plan: ImportPlan, dryRun: Bool) -> String {
        func parts(_ action: ImportChange.Action) -> String {
            let counts = plan.counts(of: action)
            return counts.isEmpty ? "" : " (" + counts.map { "\($0.count) \($0.entity)" }.joined(separator: ", ") + ")"
        }
        let sets = plan.sets.joined(separator: ", ")
        let prefix = dryRun ? "dry run of \(sets): would create" : "imported \(sets): created"
        return "\(prefix) \(plan.created)\(parts(.create)), \(dryRun ? "would update" : "updated") \(plan.updated)\(parts(.update)), unchanged \(plan.unchanged)"
    }
}
