// What every fuzz target shares: the input as a string, and the rule that a parser either
// returns or throws a std::exception with a message (anything else, a crash, a hang or a
// sanitizer report, is a defect the run stops on).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

namespace toadbase::fuzz {

inline std::string text(const uint8_t* data, size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

/// Runs `f`; an exception must say something (an empty message helps nobody).
template <class F>
void expect_clean(F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    if (std::string(e.what()).empty()) {
      std::fprintf(stderr, "an exception without a message\n");
      std::abort();
    }
  }
}

/// Stops the run when a property fails.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "property failed: %s\n", what);
    std::abort();
  }
}

}  // namespace toadbase::fuzz
