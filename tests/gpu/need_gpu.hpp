// NEED_GPU(): skips the running GPU test, saying why, where no CUDA device is usable (CI, a
// CPU-only build). One definition for the GPU test files that run decks through the CLI.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "backends/backend.hpp"

#define NEED_GPU()                                            \
  do {                                                        \
    std::string why;                                          \
    if (!halfstep::cuda_available(&why)) GTEST_SKIP() << why; \
  } while (0)
