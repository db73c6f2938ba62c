// A database's manifest as `toadbase info --json` prints it, and as the server's /api/<db>/
// route answers: one function, so both say the same.
#pragma once

#include <nlohmann/json.hpp>

#include "db/database.hpp"

namespace toadbase::tools {

/// The manifest with camelCase keys (the manifest on disk keeps its own), plus what the
/// directory says now: committedTiers, diskBytes, bitsPerPosition, and for an incomplete
/// database storedBytes and committedPositions so far and beingSolvedBy (the pid of a solve
/// writing it now, else null). `with_tiers`: every tier's counts, size and digest too; of an
/// incomplete database, the tiers committed so far, named by `names` (the game's tiers; the
/// list is left out without them).
nlohmann::json info_json(const db::Database& d, bool with_tiers = false, const std::vector<TierInfo>* names = nullptr);

}  // namespace toadbase::tools
