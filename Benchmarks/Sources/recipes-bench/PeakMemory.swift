import Foundation

/// Resident memory figures read from `/proc/<pid>/status` (Linux): this process's peak by
/// default, or any line of a child's.
enum PeakMemory {
    /// Peak RSS in mebibytes, or nil where `/proc` is not available.
    static func megabytes() -> Double? { megabytes("VmHWM:", of: "self") }

    /// A memory line of `/proc/<process>/status` (`VmRSS:`, `VmHWM:`) in mebibytes, for this
    /// process (`"self"`) or a child's PID; nil where it cannot be read.
    static func megabytes(_ field: String, of process: String) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field) {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, let kibibytes = Double(fields[1]) else { return nil }
            return kibibytes / 1024
        }
        return nil
    }

    /// Resets the peak to the current RSS (Linux `clear_refs` 5), so a later `megabytes()`
    /// measures one phase alone; returns the RSS it starts from, or nil where unsupported.
    static func resetPeak() -> Double? {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return nil }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
        } catch {
            return nil
        }
        return megabytes()
    }
}
