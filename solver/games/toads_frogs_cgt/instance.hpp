// The Instance of a CGT database (solver/module/module.hpp): what every way in calls.
//
// TIERS (forms.hpp's TierLayout), for C classes in solve order (boards.hpp):
//   0 .. C-1     class k's boards: each board's form id, in the class's rank order
//   C .. 2C-1    class k's chunk of the form table: its columns   (sized by the solve)
//   2C .. 3C-1                                      its options
//   3C .. 4C-1                                      its text
//
// QUERY. A board of 1..n cells, any string Toads and Frogs reads (a player to move may be
// given; the value does not depend on it): stripped of dead pieces, mirrored when it has more
// toads than frogs, looked up; then its form's stored columns, and each move's child the same
// way:
//   {"board":"T-TFF","value":"^","outcomeClass":"L","leftStop":"0","rightStop":"0",
//    "mean":"0","temperature":"0","kind":"infinitesimal","birthday":2,"atomicWeight":"1",
//    "leftMoves":[{"move":"0-1","board":"-TTFF","value":"0"},...],"rightMoves":[...]}
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "solver/module/module.hpp"
#include "solver/games/toads_frogs_cgt/boards.hpp"
#include "solver/games/toads_frogs_cgt/find.hpp"
#include "solver/games/toads_frogs_cgt/forms.hpp"

namespace toadbase::toads_frogs_cgt {

class CgtInstance : public Instance, public ValueClaims {
 public:
  explicit CgtInstance(nlohmann::json params);

  Identity identity() const override;
  std::vector<TierInfo> tiers() const override;
  SolveStats solve(TierStore& store, Progress* progress) const override;
  /// verify.cpp: every form made again from its stored options (canonical), its columns
  /// recomputed; every board's value made again from its children's stored values; the ids
  /// numbered again; a sample of every class queried.
  VerifyReport verify(const TierSource& source, Progress* progress) const override;
  /// analyze.cpp: distinct values by length, census by kind and outcome class, the hottest
  /// boards, the longest printed forms, the laws of the spec checked over every board.
  nlohmann::json analyze(const TierSource& source) const override;
  nlohmann::ordered_json query(const TierSource& source, const std::string& text,
                               const std::string& turn) const override;
  /// The printed lengths of the board's value and its children's, from their stored rows.
  uint64_t query_bytes(const TierSource& source, const std::string& text, const std::string& turn) const override;
  /// find.hpp: boards by value, from the index beside the database (loaded once, kept).
  nlohmann::ordered_json find(const TierSource& source, const std::string& path,
                              const std::map<std::string, std::string>& params) const override;
  /// The same for a query already read (its value made once).
  nlohmann::ordered_json find(const TierSource& source, const std::string& path, const FindQuery& q) const;
  /// How many times find has loaded an index (and kept it: a kept one is reused while its
  /// file is unchanged, FindIndex::unchanged()).
  uint64_t find_index_loads() const {
    std::lock_guard lock(find_mutex_);
    return find_index_loads_;
  }
  std::string start_position() const override;
  /// export --format tsv and validate: board<TAB>value, every board without dead pieces
  /// (each stored board, then its mirror when that is not stored), values compared as games.
  const ValueClaims* value_claims() const override { return this; }
  uint64_t claim_lines(const TierSource& source) const override;
  void each_claim(const TierSource& source, const std::function<void(const std::string&)>& line) const override;
  Checker claim_checker(const TierSource& source) const override;
  std::string position_at(TierId t, uint64_t index) const override;

  const Boards& boards() const { return boards_; }
  TierLayout layout() const { return {boards_.class_count()}; }
  /// The longest text the database stores (forms.hpp, LONG FORMS).
  uint64_t text_cap() const { return params_.value("text_cap", kTextCap); }
  /// A board string of 1..n cells; throws BadPosition saying what is wrong.
  Board parse(const std::string& text, const std::string& turn = "") const;
  /// A board's form id (through its stored, stripped and maybe mirrored board).
  uint32_t form_of(const TierSource& source, const FormReader& forms, const Board& b) const;
  /// form_of() of each board, read a step at a time for all of them (their boards' ids, the
  /// rows naming the mirrored ones' negatives), each step's blocks fetched at once
  /// (TierSource::prefetch), and the rows of the forms returned asked for last: what a query
  /// of a board and its children reads.
  std::vector<uint32_t> forms_of(const TierSource& source, const FormReader& forms,
                                 std::span<const Board> boards) const;
  /// A stored form's fields as query prints them (value ... atomicWeight), added to `j`.
  static void put_form(nlohmann::ordered_json& j, const StoredForm& f);

 private:
  nlohmann::json params_;
  Boards boards_;
  // find's index, loaded at the first find and kept (with the folder it came from)
  mutable std::mutex find_mutex_;
  mutable std::shared_ptr<const FindIndex> find_index_;
  mutable std::string find_path_;
  mutable uint64_t find_index_loads_ = 0;
};

}  // namespace toadbase::toads_frogs_cgt
