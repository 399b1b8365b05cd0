import ArgumentParser
import Foundation
import RecipesKit

/// A command's failure: the one-line reason printed on stderr and the exit status.
package struct CommandFailure: Error, CustomStringConvertible {
    /// What went wrong and how to fix it (never a password).
    package var message: String
    /// The exit status (1 unless said otherwise).
    package var status: Int32 = 1

    /// A failure with `message`, exiting with `status`.
    package init(message: String, status: Int32 = 1) {
        self.message = message
        self.status = status
    }

    /// The message.
    package var description: String { message }
}

/// Runs a command body, turning any error into one line on stderr and a non-zero exit.
package func reportingFailures(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let exit as ExitCode {
        throw exit
    } catch let failure as ExitCodeFailure {
        throw ExitCode(failure.status)
    } catch let failure as CommandFailure {
        Terminal.error(failure.message)
        throw ExitCode(failure.status)
    } catch let error as RecipesError where error.isStoreLocked {
        Terminal.error(Session.lockedMessage(path: Session.openedStorePaths.last))
        throw ExitCode.failure
    } catch is CancellationError {
        Terminal.error("cancelled; nothing was lost, run the command again to finish")
        throw ExitCode(130)
    } catch {
        Terminal.error(String(describing: error))
        throw ExitCode.failure
    }
}
