// A last word on a crash: the handlers print what happened and the call stack before the
// process ends, so that a crash seen once (on a loaded machine, in a long run) can be placed.
#pragma once

namespace halfstep {

/// Installs handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT (on an alternate stack,
/// so a stack overflow is caught too) that write "halfstep: internal error: <signal>", a
/// request to report it with the deck, and the call stack to stderr, then end the process
/// with the signal's default action (the exit status a shell sees is unchanged).
void install_crash_handler();

}  // namespace halfstep
