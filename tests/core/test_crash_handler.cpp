// The crash handler: a fatal signal still ends the process by that signal, after the message
// and the call stack went to stderr.
#include <gtest/gtest.h>

#include <csignal>

#include "core/crash_handler.hpp"

namespace halfstep {
namespace {

// A function of this file on the stack, so the trace can be seen to name frames.
[[gnu::noinline]] void crash_here(int sig) { std::raise(sig); }

TEST(CrashHandlerDeathTest, SegfaultEndsBySignalWithTheMessageAndAStack) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        install_crash_handler();
        crash_here(SIGSEGV);
      },
      ::testing::KilledBySignal(SIGSEGV), "internal error: segmentation fault \\(SIGSEGV\\).*report it with the deck");
}

TEST(CrashHandlerDeathTest, AbortEndsBySignalWithTheMessage) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        install_crash_handler();
        crash_here(SIGABRT);
      },
      ::testing::KilledBySignal(SIGABRT), "internal error: abort \\(SIGABRT\\)");
}

}  // namespace
}  // namespace halfstep
