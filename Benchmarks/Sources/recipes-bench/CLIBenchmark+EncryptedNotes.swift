import Foundation

extension CLIBenchmark {
    /// The `--encrypted-notes` part of the run: a copy of the book keeps no notes, the book
    /// itself gets encrypted notes on every recipe (one save, in a child process), and `show` and `list` are then
    /// timed on both in turn (A, B, A, B…), so that the ratio does not depend on when the
    /// machine was fast.
    func encryptedNotesFigures(executable: String, store: String, work: URL, showing name: String) throws -> [Figure] {
        let plain = work.appendingPathComponent("plain.sqlite").path
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: plain + suffix)
            if FileManager.default.fileExists(atPath: store + suffix) {
                try FileManager.default.copyItem(atPath: store + suffix, toPath: plain + suffix)
            }
        }
        let passwordFile = work.appendingPathComponent("password.txt")
        try Data("recipes-bench notes password\n".utf8).write(to: passwordFile)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: passwordFile.path)

        let bench = Bundle.main.executableURL!.path
        let writing = try ChildProcess.run(bench, ["write-notes", "--store", store, "--password-file", passwordFile.path])
        log(String(format: "encrypted notes on every recipe in %.1f s (peak RSS %.0f MB)", writing.milliseconds / 1000, writing.peakRSSMegabytes))

        let pairs: [(String, [String], [String])] = [
            ("show", ["show", name, "--store", plain],
             ["show", name, "--password-file", passwordFile.path, "--store", store]),
            ("show --json", ["show", name, "--json", "--store", plain],
             ["show", name, "--json", "--password-file", passwordFile.path, "--store", store]),
            ("list --type Soup", ["list", "--type", "Soup", "--store", plain],
             ["list", "--type", "Soup", "--store", store]),
        ]
        var figures: [Figure] = []
        for (label, without, with) in pairs {
            var plainTimes: [Double] = [], notedTimes: [Double] = []
            var plainPeak = 0.0, notedPeak = 0.0
            for _ in 0..<runs {
                let a = try ChildProcess.run(executable, without)
                let b = try ChildProcess.run(executable, with)
                plainTimes.append(a.milliseconds); notedTimes.append(b.milliseconds)
                plainPeak = max(plainPeak, a.peakRSSMegabytes); notedPeak = max(notedPeak, b.peakRSSMegabytes)
            }
            let a = plainTimes.median, b = notedTimes.median
            log(String(format: "%@: %.1f ms without notes, %.1f ms with encrypted notes (%.2f×)", label, a, b, b / a))
            figures.append(Figure(command: "\(label) (no notes, interleaved)", medianMilliseconds: a, peakRSSMegabytes: plainPeak))
            figures.append(Figure(command: "\(label) (encrypted notes\(with.contains("--password-file") ? ", password" : ""))",
                                  medianMilliseconds: b, peakRSSMegabytes: notedPeak))
        }
        return figures
    }
}
