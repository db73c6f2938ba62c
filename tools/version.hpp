// What `toadbase --version` says: this build's version, commit, compiler, -march and the
// versions of the libraries it runs with.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace toadbase::tools {

/// {"version", "commit", "compiler", "buildType", "march", "libraries": {...}}.
nlohmann::ordered_json version_json();
/// "toadbase 0.1.0 (commit ..., GNU 12.2.0, -march=native)" and the libraries on a second line.
std::string version_text();

}  // namespace toadbase::tools
