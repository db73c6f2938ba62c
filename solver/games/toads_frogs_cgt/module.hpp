// Toads and Frogs' combinatorial game values (issue 17): the module (the contract:
// solver/module/module.hpp). A database of every board of 1..n cells with its canonical value,
// solved, verified, queried and analyzed by an engine of its own (instance.hpp): this is not
// a win/lose tier game. Its own subcommands: `toadbase cgt sum`, `cgt index`, `cgt find`. One
// line in tools/registry.cpp registers it.
//
//   boards.hpp   which boards are stored (reduced, no more toads than frogs) and where
//   forms.hpp    the table of distinct forms: deterministic ids, its three tiers a class
//   solver.hpp   the solve: classes by length, children first, both cores
//   instance.hpp the Instance: tiers, solve, query (JSON), verify, analyze
//   find.hpp     boards by value: the index beside the database, and the search
//   claims.cpp   export's board<TAB>value lines, validate's check of them (as games)
//   thermograph.hpp a value's thermograph as JSON (`cgt thermograph`, the page's drawing)
//   command.cpp  `toadbase cgt sum --db D 'TT--F|T-TFF'`, `cgt index`, `cgt find`, `cgt thermograph`
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "solver/module/module.hpp"

namespace toadbase::toads_frogs_cgt {

struct Module {
  static constexpr const char* kName = "toads-frogs-cgt";
  static constexpr const char* kTitle =
      "Toads and Frogs' combinatorial game values: every board of 1..n cells (CGSuite's notation)";
  /// The record type's name in a database's manifest: a form id, or a word of the form table.
  static constexpr const char* kRecord = "cgt-form-id-u32";
  /// The blocks a database is cut into (Identity::block_bytes): a query reads a dozen
  /// scattered records (its board's form id, the form's row, options and text, every
  /// child's), each from a block decompressed when it is not held (since format 4 one block
  /// a record, its 4 byte planes together: db/layout.hpp), and each from a data block of its
  /// file as large (db/rocks.hpp). The smallest the database takes, 4 KiB: 16 KiB made a cold
  /// query faster than 64 (results/cgt.md); 4 KiB (with data blocks as small) took a cold
  /// query at 20 cells 0.77x the time at the median, 0.89x at the 99th percentile, for a
  /// database 1.25x larger; format 4 then 0.60x at both and the batch 2.5x as fast, for
  /// 1.27x the bytes (results/cgt-cold.md).
  static constexpr uint32_t kBlockBytes = 4096;
  /// Its query answers combinatorial game values (Python's Database.cgt()).
  static constexpr bool kCgtValues = true;

  /// `solve toads-frogs-cgt --length n`.
  static std::vector<ParamSpec> parameters();
  /// {"length": n}; throws std::invalid_argument.
  static nlohmann::json normalize(const nlohmann::json& given);
  static std::unique_ptr<Instance> make_instance(const nlohmann::json& normalized);
  /// `toadbase cgt sum`, `cgt index`, `cgt find` (command.cpp).
  static std::vector<GameCommand> add_commands(CLI::App& root, const Host& host);
  /// GET /api/toads-frogs-cgt/thermograph?value=V: thermograph_json (thermograph.hpp).
  static std::vector<ApiRoute> api_routes();
  /// The page's view: the plain one, a board's value and its Left and Right moves.
  static PageView page();
};

}  // namespace toadbase::toads_frogs_cgt
