// The toadbase command in this process, for the fuzz targets that go through it (or make
// their world with it): run({"solve", ...}) as `toadbase solve ...` would, its exit code.
#pragma once

#include <string>
#include <vector>

#include "tools/commands.hpp"

namespace toadbase::fuzz {

inline int run(std::vector<std::string> args) {
  args.insert(args.begin(), "toadbase");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return tools::run(static_cast<int>(args.size()), argv.data());
}

}  // namespace toadbase::fuzz
