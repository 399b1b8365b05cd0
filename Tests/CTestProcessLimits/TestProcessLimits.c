// The whole suite runs at once (Swift Testing's default parallelism), and its servers,
// stores, HTTP connections and child processes hold up to about 2,000 files at a time in
// the test process. Many Linux systems start a process with a soft limit of 1,024 open files
// (and a hard limit far above it), where the run would fail with "Too many open files"
// rather than anything the tests check. Raising the soft limit to the hard limit, as the
// process may do for itself, lets `swift test` run as written on such a machine too. It
// runs before the Swift runtime and any test; the children the tests start inherit it.
#include <sys/resource.h>

__attribute__((constructor))
static void recipes_tests_raise_open_file_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    if (limit.rlim_cur == RLIM_INFINITY || (limit.rlim_max != RLIM_INFINITY && limit.rlim_cur >= limit.rlim_max)) return;
    // An unlimited hard limit is capped at a generous finite number.
    rlim_t wanted = limit.rlim_max == RLIM_INFINITY ? 65536 : limit.rlim_max;
    if (wanted <= limit.rlim_cur) return;
    limit.rlim_cur = wanted;
    setrlimit(RLIMIT_NOFILE, &limit);
}
