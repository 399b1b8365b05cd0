internal import TestSupport
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A tiny `/bin/sh` process that cleans up after a test process that died without
/// calling `Browser.quit()` (a crash, `fatalError`, a killed test run).
///
/// It polls once a second whether its parent (the test process) is still its parent;
/// once it has been re-parented it kills chromedriver's process group, any process still
/// using the session's private Chromium profile, and removes the temporary directory.
/// `quit()` and `deinit` kill the watchdog itself, so in a normal run it never acts.
enum OrphanWatchdog {
    private static let script = #"""
        parent="$1"; group="$2"; profile="$3"; scratch="$4"
        while :; do
          read -r _ _ _ ppid _ < /proc/$$/stat 2>/dev/null || ppid=1
          [ "$ppid" = "$parent" ] || break
          sleep 1
        done
        kill -KILL -"$group" 2>/dev/null
        for dir in /proc/[0-9]*; do
          if tr '\0' '\n' < "$dir/cmdline" 2>/dev/null | grep -qxF -- "--user-data-dir=$profile"; then
            kill -KILL "${dir#/proc/}" 2>/dev/null
          fi
        done
        rm -rf -- "$scratch"
        """#

    /// Starts the watchdog for `driver`, whose Chromium uses `profile` inside `scratch`.
    static func start(driver: ChildProcess, profile: String, scratch: String) async throws -> ChildProcess {
        try await ChildProcess.start(
            "/bin/sh", ["-c", script, "recipes-browser-watchdog", String(getpid()), String(driver.processIdentifier), profile, scratch],
            ownProcessGroup: true)
    }
}
