#include "core/crash_handler.hpp"

#include <csignal>
#include <cstring>
#include <initializer_list>

#include <unistd.h>
#if __has_include(<execinfo.h>)
#include <execinfo.h>
#define HALFSTEP_HAVE_BACKTRACE 1
#else
#define HALFSTEP_HAVE_BACKTRACE 0
#endif

namespace halfstep {

namespace {

/// write(2) of a whole C string: the only output a signal handler may do.
void say(const char* s) {
  std::size_t n = std::strlen(s);
  while (n > 0) {
    const ssize_t w = ::write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<std::size_t>(w);
  }
}

const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "segmentation fault (SIGSEGV)";
    case SIGBUS: return "bus error (SIGBUS)";
    case SIGFPE: return "arithmetic exception (SIGFPE)";
    case SIGILL: return "illegal instruction (SIGILL)";
    case SIGABRT: return "abort (SIGABRT)";
    default: return "fatal signal";
  }
}

void on_fatal_signal(int sig) {
  say("halfstep: internal error: ");
  say(signal_name(sig));
  say(". This is a bug in halfstep, not in the deck: please report it with the deck, the command line and "
      "this call stack.\n");
#if HALFSTEP_HAVE_BACKTRACE
  void* frames[64];
  const int n = backtrace(frames, 64);
  backtrace_symbols_fd(frames, n, STDERR_FILENO);
#endif
  // SA_RESETHAND restored the default action: the re-raised signal ends the process as the
  // original would have (core dump, exit status 128 + sig in a shell).
  std::raise(sig);
}

}  // namespace

void install_crash_handler() {
  // A stack overflow leaves no stack to run a handler on: give it its own.
  static char alt_stack[64 * 1024];
  stack_t ss{};
  ss.ss_sp = alt_stack;
  ss.ss_size = sizeof alt_stack;
  sigaltstack(&ss, nullptr);
#if HALFSTEP_HAVE_BACKTRACE
  void* warm[1];
  backtrace(warm, 1);  // loads libgcc now: the first call may allocate, which a handler must not
#endif
  struct sigaction sa {};
  sa.sa_handler = on_fatal_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND | SA_ONSTACK;
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(sig, &sa, nullptr);
}

}  // namespace halfstep
