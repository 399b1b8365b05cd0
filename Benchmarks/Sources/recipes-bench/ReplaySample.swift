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

    /// `median (min–max)` of `values`, rounded as `format` says.
    static func summary(_ values: [Double], _ format: String) -> String {
        guard let low = values.min(), let high = values.max() else { return "-" }
        return "\(String(format: format, values.median)) (\(String(format: format, low))–\(String(format: format, high)))"
    }
}
