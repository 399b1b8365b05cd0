import Foundation

/// The figures of several runs of one client, one phase, against one server: medians and
/// spreads, as `recipes-bench http-clients` prints them.
struct ReplaySample {
    /// Documents per second of each run.
    var documentsPerSecond: [Double] = []
    /// Requests per second of each run.
    var requestsPerSecond: [Double] = []
    /// The replay process's peak RSS of each run, in MiB.
    var peakRSS: [Double] = []

    /// Adds one run.
    mutating func add(documents: Int, requests: Int, seconds: Double, peakRSS rss: Double) {
        documentsPerSecond.append(Double(documents) / seconds)
        requestsPerSecond.append(Double(requests) / seconds)
        peakRSS.append(rss)
    }

    /// The middle value (the mean of the two middle ones for an even count); 0 when empty.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// `median (min–max)` of `values`, rounded as `format` says.
    static func summary(_ values: [Double], _ format: String) -> String {
        guard let low = values.min(), let high = values.max() else { return "-" }
        return "\(String(format: format, median(values))) (\(String(format: format, low))–\(String(format: format, high)))"
    }
}
