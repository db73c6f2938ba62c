// validate's checking of another solver's claims, one line at a time: position<TAB>value
// [<TAB>remoteness] against a win/lose database, board<TAB>value against a value database
// (values compared as games). The command (`validate`), the server (POST /api/<db>/validate)
// and Python (Database.validate) share it, so the three answer the same JSON.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "tools/open.hpp"

namespace toadbase::tools {

class ClaimTally {
 public:
  /// Throws UsageError when the database's values are not claims validate reads, or when
  /// `turn` is given for values that do not depend on it. `d` outlives the tally. `show`:
  /// how many disagreements (and unparseable lines) the summary lists.
  ClaimTally(const Opened& d, const std::string& turn, int show);
  ~ClaimTally();
  ClaimTally(const ClaimTally&) = delete;
  ClaimTally& operator=(const ClaimTally&) = delete;

  /// One claim line (blank and # comment lines are the reader's to skip). A bad `turn` throws
  /// BadTurn (the caller's mistake, not the line's).
  void add(uint64_t lineno, const std::string& line);

  uint64_t rows() const;
  /// No disagreement and no unparseable line.
  bool clean() const;
  /// What to say when no line was read from `from`: an empty claim file checks nothing.
  static std::string no_claims(const std::string& from);
  /// `validate --json`'s object: file rows agreeing disagreeing unparseable
  /// firstDisagreements firstUnparseable.
  nlohmann::ordered_json summary(const std::string& file) const;
  /// `validate`'s text: the counts, then a line a listed disagreement or unparseable line.
  std::string text(const std::string& from, const std::string& db) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace toadbase::tools
