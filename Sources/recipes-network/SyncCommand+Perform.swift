import ArgumentParser
import DocumentStore
import Foundation
import Logging
import RecipesCommandLine
import RecipesKit
import RecipesSyncKit
import Replication

extension SyncCommand {
    /// `recipes sync`: one sync, or with `--live` one that runs until stopped.
    func perform() async throws {
        try await reportingFailures {
            let session = try await Session.open(global, waitsForWriters: true)
            guard let remoteURL = session.configuration.remoteURL else {
                throw CommandFailure(message: "no remote configured; give --remote URL, set RECIPES_REMOTE, or put {\"remote\": \"URL\"} in \(session.configuration.configFileURL.path)")
            }
            // A live sync says what it does in its event lines; the client's retry warnings
            // and the failed runs' errors while the remote is away would only repeat them
            // (--verbose shows them).
            var logger = session.logger
            if live && !global.verbose { logger.logLevel = .critical }
            // A live sync retries on its own schedule (0.5 s doubling to 30 s) and reports
            // `offline` meanwhile; the client only retries a blip twice (after 0.1 and 0.2 s).
            var clientOptions: CouchClientOptions
            do {
                clientOptions = try session.configuration.clientOptions()
            } catch {
                throw CommandFailure(message: "\(error)")
            }
            if live { clientOptions.maxRetries = 2 }
            let sync: RecipesSync
            do {
                sync = try session.store.sync(with: remoteURL, clientOptions: clientOptions, logger: logger)
            } catch {
                throw CommandFailure(message: "\(error)")
            }
            let progress = ProgressPrinter()
            let direction: SyncDirection = pullOnly ? .pullOnly : (pushOnly ? .pushOnly : .both)
            let preference = prefer
            let lockBehaviour: RecipesSync.LockBehaviour = wait ? .wait(timeout: nil) : .failIfRunning
            if live {
                try await runLive(sync, store: session.store, direction: direction, prefer: preference, lock: lockBehaviour, logger: logger)
                return
            }
            let interrupts = InterruptHandler()
            defer { interrupts.stop() }
            let task = Task {
                try await sync.run(direction: direction, prefer: preference, lock: lockBehaviour,
                                   observer: { progress.step($0) }, progress: { progress.progress($0) })
            }
            interrupts.attach(task)
            let report: SyncReport
            do {
                report = try await task.value
            } catch let error as SyncLockError {
                if case .alreadyRunning = error { throw CommandFailure(message: error.description, status: 75) }
                throw CommandFailure(message: error.description)
            }
            progress.finish()
            if json { try Terminal.printJSON(report) } else { Terminal.print(report.summaryLine) }
            if !report.succeeded {
                throw CommandFailure(message: report.error?.message ?? "sync \(report.result.rawValue)", status: report.result == .cancelled ? 130 : 1)
            }
            if report.refused > 0 {
                for document in report.refusedDocuments { Terminal.note("refused: \(document.line)") }
                throw CommandFailure(
                    message: "\(report.refused) document(s) refused and still pending; change them (a smaller note or image) and sync again",
                    status: Self.refusedStatus)
            }
        }
    }
}
