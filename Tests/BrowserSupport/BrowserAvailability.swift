internal import Foundation

/// Whether browser tests can run on this machine, so a test can skip with the reason
/// instead of failing where Chromium is not installed:
/// `@Test(.enabled(if: BrowserAvailability.unavailableReason() == nil))`.
///
/// Binaries are looked up on `PATH`; `RECIPES_CHROMIUM` and `RECIPES_CHROMEDRIVER` name
/// them explicitly, and `RECIPES_SKIP_BROWSER=1` turns browser tests off.
public enum BrowserAvailability {
    /// Why browser tests cannot run here, or nil when they can. Cheap: it only looks at the
    /// environment and the file system, so it may run while tests are being discovered.
    public static func unavailableReason() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let skip = environment["RECIPES_SKIP_BROWSER"], !skip.isEmpty, skip != "0" {
            return "browser tests turned off by RECIPES_SKIP_BROWSER=\(skip)"
        }
        let missing = [
            chromiumPath() == nil ? "chromium" : nil,
            chromedriverPath() == nil ? "chromedriver" : nil,
        ].compactMap { $0 }
        if missing.isEmpty { return nil }
        return "no \(missing.joined(separator: " or ")) on PATH (apt-get install chromium chromium-driver)"
    }

    /// The Chromium executable. On Debian `/usr/bin/chromium` is a shell wrapper that
    /// `exec`s `/usr/lib/chromium/chromium` after sourcing flag files; the real binary is
    /// preferred so the wrapper adds no flags of its own.
    static func chromiumPath() -> String? {
        if let explicit = explicitPath("RECIPES_CHROMIUM") { return explicit }
        let debianBinary = "/usr/lib/chromium/chromium"
        if FileManager.default.isExecutableFile(atPath: debianBinary) { return debianBinary }
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            if let path = onPath(name) { return path }
        }
        return nil
    }

    /// The chromedriver executable.
    static func chromedriverPath() -> String? {
        explicitPath("RECIPES_CHROMEDRIVER") ?? onPath("chromedriver")
    }

    private static func explicitPath(_ variable: String) -> String? {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else { return nil }
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    private static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") where !directory.isEmpty {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
