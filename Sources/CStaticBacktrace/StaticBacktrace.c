// Crash reports for a statically linked `recipes`.
//
// The Swift runtime prints a symbolicated backtrace on a crash by starting its backtracer
// program. Linked as a shared library, it finds `swift-backtrace` beside itself in the
// toolchain; linked into the executable, it looks relative to the program's argv[0] and
// finds nothing, so a crash ends silently. The runtime reads SWIFT_BACKTRACE in a static
// constructor of its own, so this constructor, which runs before every constructor of
// default priority, names the static backtracer there, unless the user already set
// SWIFT_BACKTRACE. Setting the path also spares the runtime its own search, which walks
// the executable's symbol table.
#define _GNU_SOURCE
#include "CStaticBacktrace.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char chosenPath[PATH_MAX];

static int isExecutableFile(const char *path) {
    struct stat info;
    return stat(path, &info) == 0 && S_ISREG(info.st_mode) && access(path, X_OK) == 0;
}

// Writes `directory` + `suffix` into chosenPath; true when that is an executable file.
static int tryCandidate(const char *directory, const char *suffix) {
    int length = snprintf(chosenPath, sizeof chosenPath, "%s%s", directory, suffix);
    return length > 0 && (size_t)length < sizeof chosenPath && isExecutableFile(chosenPath);
}

// The toolchain whose `swift` is first on PATH: `<toolchain>/usr/bin/swift` beside
// `<toolchain>/usr/libexec/swift/linux/swift-backtrace-static`. This is where a program
// run straight from `.build` finds it.
static int tryToolchainOnPath(void) {
    const char *path = getenv("PATH");
    if (path == NULL) return 0;
    char entry[PATH_MAX];
    while (*path != '\0') {
        const char *end = strchr(path, ':');
        size_t length = end ? (size_t)(end - path) : strlen(path);
        if (length > 0 && length < sizeof entry - 8) {
            memcpy(entry, path, length);
            strcpy(entry + length, "/swift");
            char resolved[PATH_MAX];
            if (isExecutableFile(entry) && realpath(entry, resolved) != NULL) {
                char *slash = strrchr(resolved, '/');
                if (slash != NULL) {
                    *slash = '\0';
                    if (tryCandidate(resolved, "/../libexec/swift/linux/swift-backtrace-static")) return 1;
                }
            }
        }
        if (end == NULL) break;
        path = end + 1;
    }
    return 0;
}

// The runtime's hook for the program's arguments (exported by it for hosts that run Swift
// code in-process). The runtime otherwise finds argv by walking back from `environ`, which
// setenv below moves off the initial stack.
extern void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) __attribute__((swiftcall));

// glibc calls each constructor with the program's argc, argv and environment.
__attribute__((constructor(101))) static void chooseStaticBacktracer(int argc, char **argv, char **envp) {
    (void)envp;
    if (argv == NULL || argc < 0 || getenv("SWIFT_BACKTRACE") != NULL) return;
    // A shared Swift runtime exports its entry points and finds its own backtracer.
    if (dlsym(RTLD_DEFAULT, "swift_retain") != NULL) return;

    char executable[PATH_MAX];
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    if (length <= 0) return;
    executable[length] = '\0';
    char *slash = strrchr(executable, '/');
    if (slash == NULL) return;
    *slash = '\0';

    // Beside the program (an installed copy), then the usual install layout, then the
    // toolchain that built it.
    int found = tryCandidate(executable, "/swift-backtrace-static")
        || tryCandidate(executable, "/../libexec/swift/linux/swift-backtrace-static")
        || tryToolchainOnPath();
    // The runtime's settings are comma-separated, so a path holding a comma cannot be named.
    if (!found || strchr(chosenPath, ',') != NULL) return;

    char setting[PATH_MAX + 32];
    int written = snprintf(setting, sizeof setting, "swift-backtrace=%s", chosenPath);
    if (written <= 0 || (size_t)written >= sizeof setting) return;
    if (setenv("SWIFT_BACKTRACE", setting, 0) == 0) _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
}
