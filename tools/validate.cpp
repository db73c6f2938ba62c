// toadbase validate --db DIR FILE: another solver's position<TAB>value[<TAB>remoteness] claims
// (the checking: tools/validate_claims.cpp).
#include <iostream>
#include <limits>

#include "tools/cli.hpp"
#include "tools/open.hpp"
#include "tools/validate.hpp"

namespace toadbase::tools {

namespace {

struct ValidateOptions {
  Common c;
  std::string file, turn;
  int show = 10;
};

int run_validate(const ValidateOptions& o) {
  const Opened d = open_database(o.c.db);
  ClaimTally t(d, o.turn, o.show);
  each_input_line(o.file, [&](uint64_t lineno, const std::string& line) { t.add(lineno, line); });
  // an empty claim file (an export that wrote nothing, a wrong path piped in) checks nothing
  if (t.rows() == 0) throw std::runtime_error(ClaimTally::no_claims(input_name(o.file)));
  if (o.c.json_out)
    std::cout << dump(t.summary(o.file)) << "\n";
  else
    std::cout << t.text(input_name(o.file), o.c.db);
  return t.clean() ? kExitOk : kExitNo;
}

}  // namespace

Command add_validate(CLI::App& root) {
  auto o = std::make_shared<ValidateOptions>();
  auto* validate =
      root.add_subcommand("validate", "compare another solver's position<TAB>value[<TAB>remoteness] file");
  add_db_option(validate, o->c);
  add_json_flag(validate, o->c);
  validate->add_option("file", o->file, "the TSV file; - reads standard input")->required();
  validate->add_option("--turn", o->turn, "the player to move for bare boards (1 or 2)")
      ->check(turn_given())
      ->default_str("none: the position says");
  validate->add_option("--show", o->show, "how many disagreements (and unparseable rows) to list")
      ->check(whole_number_in(0, std::numeric_limits<int>::max()));
  examples(validate, {"toadbase validate --db data/tf10 other-solver.tsv",
                      "toadbase export --db data/tf10 --format tsv - | toadbase validate --db data/tf10 -"});
  return {validate, [o] { return run_validate(*o); }};
}

}  // namespace toadbase::tools
