// A game's parameters as the command line shows them: the game declares them, the tools
// turn them into options, and the game reads them back from a JSON object.
#pragma once

#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace toadbase {

struct ParamSpec {
  enum class Kind { Int, String };
  std::string name;  // option name without dashes, e.g. "length"
  Kind kind;
  std::string help;
  std::string default_value{};  // what --help shows as the default ("10", "every count"; "" none)
  /// An Int's range on its own: the command refuses a value outside it by name before
  /// anything runs ("--length: 30 is out of range (1..26)"); normalize() still checks how
  /// the parameters go together.
  long long min = std::numeric_limits<int>::min(), max = std::numeric_limits<int>::max();
};

/// `text` as a whole number within [lo, hi] (all of it, in decimal), or nothing.
inline std::optional<long long> whole_number(const std::string& text, long long lo, long long hi) {
  long long n = 0;
  size_t used = 0;
  try {
    n = std::stoll(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (used != text.size() || n < lo || n > hi) return std::nullopt;
  return n;
}

}  // namespace toadbase
