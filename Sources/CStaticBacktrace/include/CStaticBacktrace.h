#ifndef C_STATIC_BACKTRACE_H
#define C_STATIC_BACKTRACE_H

// Nothing to call: linking this module into a program gives it a constructor that, when
// the Swift runtime is linked in statically, names `swift-backtrace-static` in
// SWIFT_BACKTRACE before the runtime reads it, so a crash still prints a symbolicated
// backtrace (see StaticBacktrace.c).

#endif
