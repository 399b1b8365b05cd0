#ifndef C_TEST_PROCESS_LIMITS_H
#define C_TEST_PROCESS_LIMITS_H

// Nothing to call: linking this module into the test bundle gives it a constructor that
// raises the process's soft limit of open files to its hard limit before any test runs (see
// TestProcessLimits.c).

#endif
