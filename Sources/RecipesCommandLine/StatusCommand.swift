import ArgumentParser
import Foundation
import HTTPSupport
import RecipesKit

/// `recipes status`: where the store is, what it holds, and how syncing stands.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", _superCommandName: RecipesCommand.name,
        abstract: "Show the store, its counts, pending changes, the last sync and the remote.",
        discussion: """
            --json prints {store, storeSource, remote, remoteSource, counts: {recipes, ingredients, \
            types, images}, documents, pendingChanges, conflicts, seeding: {outcome, sets, \
            objectsCreated, date} | null, refused: [{id, direction, error, reason}], lastSync: \
            <sync report> | null}. pendingChanges counts the documents changed since the last push \
            and those the remote refused (they are listed in refused with the reason, and every \
            sync offers them again). The remote's password is always masked.
            """)

    @OptionGroup var global: GlobalOptions

    @Flag(name: .long, help: "Print JSON.")
    var json = false

    /// The JSON shape of `status`.
    struct Status: Encodable {
        struct Counts: Encodable {
            var recipes: Int
            var ingredients: Int
            var types: Int
            var images: Int
        }

        var store: String
        var storeSource: String
        var remote: String?
        var remoteSource: String?
        var counts: Counts
        var documents: Int
        var pendingChanges: Int
        var conflicts: Int
        var seeding: SeedingRecord?
        var refused: [RefusedDocument]
        var lastSync: SyncReport?

        private enum CodingKeys: String, CodingKey {
            case store, storeSource, remote, remoteSource, counts, documents, pendingChanges, conflicts, seeding, refused
            case lastSync
        }
    }

    func run() async throws {
        try await reportingFailures {
            let session = try await Session.open(global, purpose: .browsing)
            let configuration = session.configuration
            let documents = session.store.documentStore
            let counts = try session.book.counts()
            let status: Status
            do {
                let syncRecord = try SyncStatusRecord.stored(in: documents)
                status = Status(
                    store: CredentialMask.maskedPath(configuration.storeURL.path), storeSource: configuration.storeSource.rawValue,
                    remote: configuration.maskedRemote.map { masked in
                        configuration.remoteIsLocalStore ? configuration.remoteURL.map { CredentialMask.maskedPath($0.path) } ?? masked : masked
                    },
                    remoteSource: configuration.remoteSource?.rawValue,
                    counts: Status.Counts(recipes: counts["Recipe"] ?? 0, ingredients: counts["Ingredient"] ?? 0,
                                          types: counts["RecipeType"] ?? 0, images: counts["Image"] ?? 0),
                    documents: try session.store.documentCount(),
                    pendingChanges: try SyncStatusRecord.pendingChangeCount(of: documents),
                    conflicts: try StoreInspection.conflictedDocumentCount(documents),
                    seeding: try session.store.seeder.record(),
                    refused: syncRecord.refused,
                    lastSync: syncRecord.lastSync)
            } catch let error as RecipesError {
                throw CommandFailure(message: error.description)
            }
            if json {
                try Terminal.printJSON(status)
                return
            }
            var lines = [
                "store:      \(status.store) (\(status.storeSource))",
                "remote:     \(status.remote.map { "\($0) (\(status.remoteSource ?? ""))" } ?? "none")",
                "recipes:    \(status.counts.recipes) (\(status.counts.ingredients) ingredients, \(status.counts.types) types, \(status.counts.images) images)",
                "documents:  \(status.documents)",
                "pending:    \(status.pendingChanges) local change(s) not pushed",
            ]
            lines += status.refused.map { "refused:    \($0.line)" }
            lines.append("conflicts:  \(status.conflicts)")
            if let last = status.lastSync {
                lines.append("last sync:  \(SyncReport.timestamp(last.finishedAt)) \(last.summaryLine)")
            } else {
                lines.append("last sync:  never")
            }
            for line in lines { Terminal.print(line) }
        }
    }
}
