// The manifest as `toadbase info --json` prints it: one function, so the command and the
// server's /api/<db>/ cannot drift apart.
#pragma once

#include <nlohmann/json.hpp>

#include "db/database.hpp"

namespace toadbase::tools {

/// The database's manifest with its status: committed tiers, bytes on disk, bits per
/// position (and, while incomplete, what is stored so far); every tier's entry only with
/// `with_tiers`.
nlohmann::json info_json(const db::Database& d, bool with_tiers);

}  // namespace toadbase::tools
