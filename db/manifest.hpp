// The manifest and the tiers' commit records: what a database says about itself.
//
//   key "manifest"    JSON: format "toadbase", format_version, game, parameters, record (the
//                     record type's name), record_bytes (when not 1), block_records (bytes a
//                     block holds at most: 65536, or from format 3 another power of two the
//                     game asked for; from format 4 a block of records wider than a byte
//                     holds its records' planes, layout.hpp), compression, zstd_level, tier_count,
//                     tiers_digest (of the tier names and sizes), positions, complete; once
//                     complete also stored_bytes, digest and the per-tier list `tiers`.
//                     With tiers sized by the solve (store.hpp's kSizedBySolve) also
//                     sized_by_solve, their ids as [from, to) runs; `positions` counts the
//                     other tiers' records, and once complete table_records theirs
//   key 'T' u32be(t)  the tier's commit record, five u64le: record bytes of the whole tier,
//                     blocks, stored bytes, XXH64 digest, record bytes kept (format 1 had the
//                     first four only: a tier kept all or nothing)
//
// Sizes on disk count bytes of the records (records times their width, in whatever layout:
// db/layout.hpp); in memory they count records, so a game never sees the layout.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "solver/core/store.hpp"

namespace toadbase::db {

/// The newest format this toadbase writes: 4 for records wider than a byte (their planes
/// per block, layout.hpp: a toadbase of format 3 would misread them), else 3 for a database
/// of blocks other than 64 KiB (a toadbase of format 2 would misread them), 2 otherwise, so
/// that older toadbases read what they can.
inline constexpr uint32_t kFormatVersion = 4;
/// The oldest format this toadbase reads (format 1: a tier kept all its records or none),
/// and the oldest it resumes.
inline constexpr uint32_t kOldestReadableVersion = 1, kOldestResumableVersion = 2;

using toadbase::Identity;
using toadbase::TierInfo;

/// A committed tier (counts in records).
struct TierMeta {
  uint64_t positions = 0;  // records in the tier
  uint64_t kept = 0;       // the first `kept` records are stored
  uint64_t blocks = 0, stored_bytes = 0, digest = 0;
};

/// A manifest's block bytes (65536 when it does not say).
uint64_t block_bytes_of(const nlohmann::json& manifest);

/// The manifest of a new database.
nlohmann::json new_manifest(const Identity& id, const std::vector<TierInfo>& tiers, int zstd_level);
/// Throws DbError naming `path` unless `text` is a manifest this toadbase reads.
nlohmann::json parse_manifest(const std::string& text, const std::string& path);
Identity identity_of(const nlohmann::json& manifest);
/// [t]: true for a tier sized by the solve; throws DbError naming `path` when the list is damaged.
std::vector<bool> sized_by_solve(const nlohmann::json& manifest, const std::string& path);
/// The digest of a tier layout (names and sizes), to refuse resuming another layout.
std::string tiers_digest(const std::vector<TierInfo>& tiers, unsigned width);

std::string tier_key(TierId t);
std::string block_key(TierId t, uint64_t block);
/// The tier of a commit-record key, or false when `key` is not one.
bool parse_tier_key(std::string_view key, TierId* t);
std::string encode_commit(const TierMeta& m, unsigned width);
/// A commit record read back; throws DbError naming the tier when it does not add up.
TierMeta decode_commit(std::string_view value, unsigned width, uint32_t format_version, uint64_t block_bytes,
                       const std::string& where);

/// The per-tier list of a finished manifest, as JSON text (built on every core: 12,546 tiers
/// at length 16).
std::string tier_list_text(const std::vector<TierInfo>& tiers, const std::vector<TierMeta>& meta);

}  // namespace toadbase::db
