/// How the syncs of a chaos run ended.
struct ChaosTally {
    var runs = 0
    /// Exited 0.
    var succeeded = 0
    /// Exited non-zero with a `recipes: <reason>` line last on stderr.
    var failedCleanly = 0
    /// Ended by a signal.
    var crashed = 0
    /// Still running at the deadline, and killed.
    var hung = 0
    /// Exited non-zero without a `recipes: …` line last on stderr.
    var unclean = 0
    /// Runs whose output contained the remote's password.
    var passwordLeaks = 0
    /// The longest run, in seconds.
    var longestSeconds = 0.0
    /// Each kind of error line of a clean failure (digits written `N`), with how often it came.
    var errors: [String: Int] = [:]
    /// The stderr tails of crashed, hung and unclean runs, for the report.
    var incidents: [String] = []

    /// Classifies one finished `recipes sync` run.
    mutating func record(_ outcome: TimedProcess.Outcome, password: String, label: String) {
        runs += 1
        longestSeconds = max(longestSeconds, outcome.seconds)
        if (outcome.stdout + outcome.stderr).contains(password) { passwordLeaks += 1 }
        if outcome.seconds > 20 { incidents.append("\(label): slow (\(Int(outcome.seconds)) s): \(outcome.stderr.suffix(1500))") }
        let lines = outcome.stderr.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        let tail = lines.suffix(3).joined(separator: " | ")
        if outcome.timedOut {
            hung += 1
            incidents.append("\(label): hung (killed after \(Int(outcome.seconds)) s): \(tail)")
        } else if let signal = outcome.signal {
            crashed += 1
            incidents.append("\(label): signal \(signal): \(tail)")
        } else if outcome.exitStatus == 0 {
            succeeded += 1
        } else if let last = lines.last, last.hasPrefix("recipes: ") {
            failedCleanly += 1
            errors[Self.shape(of: last), default: 0] += 1
        } else {
            unclean += 1
            incidents.append("\(label): exit \(outcome.exitStatus ?? -1) without an error line: \(tail)")
        }
    }

    /// An error line with each run of digits (ports, byte counts) written `N`, so lines that
    /// differ only in those count as one kind.
    static func shape(of line: String) -> String {
        var shaped = ""
        var inDigits = false
        for character in line {
            if character.isASCII, character.isNumber {
                if !inDigits { shaped.append("N") }
                inDigits = true
            } else {
                shaped.append(character)
                inDigits = false
            }
        }
        return shaped
    }
}
