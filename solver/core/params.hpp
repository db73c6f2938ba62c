// A game's parameters as the command line shows them: the game declares them, the tools
// turn them into options, and the game reads them back from a JSON object.
#pragma once

#include <string>
#include <vector>

namespace toadbase {

struct ParamSpec {
  enum class Kind { Int, String };
  std::string name;  // option name without dashes, e.g. "length"
  Kind kind;
  std::string help;
  std::string default_value{};  // what --help shows as the default ("10", "every count"; "" none)
};

}  // namespace toadbase
