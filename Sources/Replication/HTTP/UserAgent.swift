import Foundation

/// The `User-Agent` every request of this package carries: `recipes/<version> (<os>)`, so
/// server operators can tell our traffic apart.
public enum UserAgent {
    /// The package version reported to servers.
    public static let version = "0.1.0"

    /// `recipes/<version> (<os name and version>)`.
    public static let value: String = {
        #if os(Linux)
        let system = "Linux"
        #elseif os(macOS)
        let system = "macOS"
        #else
        let system = "unknown"
        #endif
        let release = ProcessInfo.processInfo.operatingSystemVersion
        return "recipes/\(version) (\(system) \(release.majorVersion).\(release.minorVersion).\(release.patchVersion))"
    }()
}
