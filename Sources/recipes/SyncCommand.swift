public import ArgumentParser
import Foundation
import Logging
import RecipesKit
import Replication

/// `recipes sync`: pull → resolve conflicts → push → refresh with the remote.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync the store with the remote: pull, resolve conflicts, push, refresh.",
        discussion: """
            Only one sync per store runs at a time: a second one reports "sync already running" \
            and exits with status 75, or waits with --wait. A failed step exits non-zero with its \
            reason; nothing is lost and the next sync resumes. --json prints {result, direction, \
            remote, startedAt, finishedAt, pulled, pushed, conflictsResolved, refused, \
            refusedDocuments: [{id, direction, error, reason}], error, steps: [{name, state, error}]}.

            A document the other side refuses (CouchDB answers 413 past its max_document_size, \
            a validation function 403) does not stop the sync: it is named on stderr with the \
            reason, stays pending (recipes status lists it), and every later sync offers it again \
            until it is copied or changed. The sync then exits with status 3.

            --live keeps syncing until interrupted: a pull and a push at once, then a pull \
            whenever the remote has new changes (one longpoll request held open) and a push \
            within a second of any save to the store, by any process (other commands keep \
            working meanwhile). It holds the sync lock all along. Each change of state is one \
            line on stderr (connected, pulled N, pushed N, caught up, offline: REASON (retrying \
            in S s), stopped), or with --json one JSON object per line on stdout: {event, time, \
            count, error, retryIn, remote}. While the remote cannot be reached it retries, waiting \
            0.5 s doubling to 30 s; refused credentials or access (401, 403) stop it with \
            status 1. SIGINT stops it within 2 s with status 130, SIGTERM with status 143; \
            what was synced is checkpointed and the next sync resumes there. If the store file is \
            deleted, replaced or truncated meanwhile, it says so and exits with status 1.
            """)

    /// The exit status of a sync that finished but left refused documents pending.
    static let refusedStatus: Int32 = 3

    @OptionGroup var global: GlobalOptions

    @Flag(name: .customLong("pull-only"), help: "Only pull (and resolve conflicts).")
    var pullOnly = false

    @Flag(name: .customLong("push-only"), help: "Only push.")
    var pushOnly = false

    @Flag(name: .long, help: "Wait for a sync already running instead of failing.")
    var wait = false

    @Option(name: .long, help: "Which side wins conflicting properties: remote (default) or local.")
    var prefer: ConflictPreference = .remote

    @Flag(name: .long, help: "Print the report as JSON (with --live: one JSON object per event and line).")
    var json = false

    @Flag(name: .long, help: "Keep syncing until interrupted (SIGINT: exit 130, SIGTERM: exit 143).")
    var live = false

    func validate() throws {
        if pullOnly && pushOnly { throw ValidationError("Give --pull-only or --push-only, not both.") }
    }

    func run() async throws {
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
            var clientOptions = CouchClientOptions()
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

extension ConflictPreference: ExpressibleByArgument {}
