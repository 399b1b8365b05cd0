public import ArgumentParser
import Foundation
package import RecipesKit

/// `recipes sync`: pull → resolve conflicts → push → refresh with the remote.
package struct SyncCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "sync", _superCommandName: RecipesCommand.name,
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
    package static let refusedStatus: Int32 = 3

    @OptionGroup package var global: GlobalOptions

    @Flag(name: .customLong("pull-only"), help: "Only pull (and resolve conflicts).")
    package var pullOnly = false

    @Flag(name: .customLong("push-only"), help: "Only push.")
    package var pushOnly = false

    @Flag(name: .long, help: "Wait for a sync already running instead of failing.")
    package var wait = false

    @Option(name: .long, help: "Which side wins conflicting properties: remote (default) or local.")
    package var prefer: ConflictPreference = .remote

    @Flag(name: .long, help: "Print the report as JSON (with --live: one JSON object per event and line).")
    package var json = false

    @Flag(name: .long, help: "Keep syncing until interrupted (SIGINT: exit 130, SIGTERM: exit 143).")
    package var live = false

    /// A command with every option at its default, as ArgumentParser starts from.
    package init() {}

    package func validate() throws {
        if pullOnly && pushOnly { throw ValidationError("Give --pull-only or --push-only, not both.") }
    }

    /// Runs in the program that links the sync engine (``NetworkCommands``).
    package func run() async throws {
        try await reportingFailures { try await RecipesCommand.network.sync(self) }
    }
}

extension ConflictPreference: ExpressibleByArgument {}
