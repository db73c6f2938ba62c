// `toadbase cgt sum --db D 'TT--F|T-TFF' ...`: strips separated by walls add up.
//
// A wall between two strips stops every jump and slide across it, so the board is the sum
// of its strips. (A board does not split into a sum at any fixed pattern of its own cells:
// TFT-- is 3, while TF + T-- is 2.) Each strip's value comes from the database; the sum is
// made in a FormTable of its own, and printed like a query's value.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>

#include "solver/core/work_budget.hpp"
#include "solver/games/toads_frogs_cgt/instance.hpp"
#include "solver/games/toads_frogs_cgt/module.hpp"
#include "solver/games/toads_frogs_cgt/thermograph.hpp"

namespace toadbase::toads_frogs_cgt {

namespace {

/// The positionals of a command whose positionals may start with '-' (a strip "--TF", a
/// value "-1"): the host hands them over in the order given (Host::positionals); `shown` is
/// the positional CLI11 lists on the help page, never filled.
void dash_positionals(const Host& host, CLI::App* app, const std::string& name, std::vector<std::string>& into,
                      const std::string& help) {
  static std::vector<std::string> shown;
  app->add_option(name, shown, help + " (one that starts with '-' may also go after --)");
  host.positionals(app, &into);
}

struct SumOptions {
  std::string db;
  std::vector<std::string> sums;
  bool text = false;
};

/// A value database opened for a cgt command, with its instance and its forms' reader.
struct OpenedCgt {
  OpenedCgt(const Host& host, const std::string& db)
      : d(host.open(db, Module::kName)), inst(cgt_instance(*d.instance)), reader(*d.source, inst->layout()) {}
  OpenedDatabase d;
  const CgtInstance* inst;
  FormReader reader;

 private:
  static const CgtInstance* cgt_instance(const Instance& i) {
    const auto* c = dynamic_cast<const CgtInstance*>(&i);
    if (!c) throw std::logic_error("cgt: not a CGT instance");
    return c;
  }
};

int run_sum(const SumOptions& o, const Host& host) {
  const OpenedCgt c(host, o.db);
  const OpenedDatabase& d = c.d;
  const CgtInstance* inst = c.inst;
  const FormReader& reader = c.reader;
  std::string out;
  for (const std::string& sum : o.sums) {
    cgt::FormTable t({size_t{1} << 16, size_t{1} << 14});
    nlohmann::ordered_json j;
    j["sum"] = sum;
    nlohmann::ordered_json boards = nlohmann::ordered_json::array(), values = nlohmann::ordered_json::array();
    cgt::FormId total = cgt::FormTable::zero();
    size_t from = 0;
    for (;;) {
      const size_t bar = sum.find('|', from);
      const std::string strip = sum.substr(from, bar == std::string::npos ? std::string::npos : bar - from);
      if (strip.empty())
        throw std::invalid_argument("cgt sum '" + sum + "': an empty strip (two walls side by side, or one at an end)");
      const Board b = inst->parse(strip);
      const uint32_t id = inst->form_of(*d.source, reader, b);
      boards.push_back(board_string(b));
      values.push_back(reader.text(id));
      total = t.sum(total, reader.build(t, id));
      if (bar == std::string::npos) break;
      from = bar + 1;
    }
    j["boards"] = boards;
    j["values"] = values;
    CgtInstance::put_form(j, describe_value(t, total));
    if (o.text) {
      out += sum + " = " + j["value"].get<std::string>() + "  (" + j["outcomeClass"].get<std::string>() + ", " +
             j["kind"].get<std::string>() + ")\n";
    } else {
      out += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
  }
  std::cout << out << std::flush;
  return 0;
}

struct IndexOptions {
  std::string db;
  bool json = false;
};

int run_index(const IndexOptions& o, const Host& host) {
  const OpenedCgt c(host, o.db);
  const CgtInstance* inst = c.inst;
  const auto t0 = std::chrono::steady_clock::now();
  const FindIndex index = FindIndex::build(inst->boards(), *c.d.source, c.reader);
  const std::string file = (std::filesystem::path(o.db) / kFindIndexFile).string();
  index.save(file);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  nlohmann::ordered_json j = {{"index", file},       {"forms", index.forms()}, {"pairs", index.pairs()},
                              {"bytes", index.file_bytes()}, {"seconds", seconds}};
  if (o.json) std::cout << j.dump() << "\n";
  else
    std::cout << file << ": " << index.forms() << " forms, " << index.pairs() << " (form, class) pairs, "
              << index.file_bytes() << " bytes, made in " << seconds << " s\n";
  return 0;
}

struct FindOptions {
  std::string db, outcome, kind, temperature, mean;
  bool outcome_given = false, kind_given = false, temperature_given = false, mean_given = false;
  std::vector<std::string> values;
  int limit = 10;
  std::optional<uint64_t> max_value_steps;  // serve's bound on the typed value's work, when given
  bool json = false;
};

int find_and_print(const FindOptions& o, const Host& host) {
  std::map<std::string, std::string> params;
  if (o.values.size() > 1) throw UsageError("cgt find takes one VALUE, not " + std::to_string(o.values.size()));
  if (!o.values.empty()) params["value"] = o.values[0];
  // an option given empty is passed on, to be refused by name
  if (o.outcome_given) params["outcome"] = o.outcome;
  if (o.kind_given) params["kind"] = o.kind;
  if (o.temperature_given) params["temperatureAtLeast"] = o.temperature;
  if (o.mean_given) params["mean"] = o.mean;
  params["limit"] = std::to_string(o.limit);
  const FindQuery q = FindQuery::from_params(params);  // a usage error before the database is opened
  const OpenedCgt c(host, o.db);
  const nlohmann::ordered_json a = c.inst->find(*c.d.source, o.db, q);
  const bool found = a.value("found", false);
  if (o.json) {
    std::cout << a.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    std::ostringstream s;
    if (a.contains("value") && a["value"].is_string()) s << "value " << a["value"].get<std::string>() << ": ";
    else if (a.contains("characters")) s << "value (" << a["characters"].get<uint64_t>() << " characters): ";
    s << a["values"].get<uint64_t>() << " distinct value(s) on boards of 1.." << a["maxLength"].get<int>() << " cells\n";
    s << "cells  boards\n";
    for (const auto& e : a["byLength"])
      s << std::setw(5) << e["length"].get<int>() << "  " << e["boards"].get<uint64_t>() << "\n";
    if (!a["shortest"].empty()) s << "shortest boards (no dead pieces):\n";
    for (const auto& e : a["shortest"])
      s << "  " << e["board"].get<std::string>() << "  "
        << (e.contains("value") ? e["value"].get<std::string>()
                                : "(" + std::to_string(e["characters"].get<uint64_t>()) + " characters)")
        << "\n";
    std::cout << s.str();
  }
  std::cout << std::flush;
  if (!found) {
    std::cerr << "toadbase: " << a.value("message", std::string("no board has it")) << "\n";
    return kExitNo;
  }
  return kExitOk;
}

int run_find(const FindOptions& o, const Host& host) {
  // unbounded unless asked (Ctrl-C ends a command); bounded, as serve bounds a request
  std::optional<core::WorkBudget> budget;
  if (o.max_value_steps) budget.emplace(*o.max_value_steps);
  try {
    return find_and_print(o, host);
  } catch (const core::WorkLimit& e) {
    throw UsageError("the values typed (VALUE, --mean, --temperature-at-least) take more work than "
                     "--max-value-steps " + std::to_string(e.steps()) +
                     " allows (a form made, compared, added or drawn is a step)");
  }
}

struct ThermographOptions {
  std::vector<std::string> values;
  bool json = false;
};

/// One wall as text: "from t = 0: 2, slope -1; from t = 3/2: 1/2, slope 0".
std::string wall_text(const nlohmann::ordered_json& wall) {
  std::string out;
  for (const auto& p : wall) {
    if (!out.empty()) out += "; ";
    out += "from t = " + p["from"].get<std::string>() + ": " + p["value"].get<std::string>() + ", slope " +
           std::to_string(p["slope"].get<int>());
  }
  return out;
}

int run_thermograph(const ThermographOptions& o) {
  // each value answered in its turn; one that does not parse is named in its place (a JSON
  // line {"value", "error"} under --json, else a line on standard error) and the rest are
  // answered: exit 2 at the end, as for a single value that does not parse
  int rc = kExitOk;
  for (const std::string& v : o.values) {
    std::string out;
    try {
      const nlohmann::ordered_json j = thermograph_json(v);
      if (o.json) {
        out = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
      } else {
        const std::string shown = j["value"].is_string()
                                      ? j["value"].get<std::string>()
                                      : "(a value of " + std::to_string(j["characters"].get<uint64_t>()) + " characters)";
        out = shown + ": mean " + j["mean"].get<std::string>() + ", temperature " +
              j["temperature"].get<std::string>() + "\n  left wall:  " + wall_text(j["leftWall"]) +
              "\n  right wall: " + wall_text(j["rightWall"]) + "\n";
      }
    } catch (const UsageError& e) {
      rc = kExitUsage;
      if (!o.json) {
        std::cout << std::flush;
        std::cerr << "toadbase: error: " << e.what() << "\n";
        continue;
      }
      nlohmann::ordered_json j;
      j["value"] = v;
      j["error"] = e.what();
      out = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    std::cout << out;
  }
  std::cout << std::flush;
  return rc;
}

}  // namespace

std::vector<GameCommand> Module::add_commands(CLI::App& root, const Host& host) {
  auto* top = root.add_subcommand("cgt", "Toads and Frogs' combinatorial game values from a toads-frogs-cgt database");
  top->require_subcommand(1);
  auto o = std::make_shared<SumOptions>();
  auto* sum = top->add_subcommand("sum", "the value of strips separated by walls (|): the sum of their values, as JSON");
  sum->add_option("--db", o->db, "the database (toadbase solve toads-frogs-cgt ...)")->required();
  dash_positionals(host, sum, "sums", o->sums, "strips separated by |, e.g. 'TT--F|T-TFF'; each argument one sum");
  sum->add_flag("--text", o->text, "one line a sum instead of JSON");
  // no strip at all is a usage error
  sum->callback([o] {
    if (o->sums.empty()) throw CLI::ValidationError("sums", "give strips separated by |, e.g. 'TT--F|T-TFF'");
  });

  auto io = std::make_shared<IndexOptions>();
  auto* index = top->add_subcommand(
      "index", "make the index that cgt find reads (one pass over every board; saved in the database's folder)");
  index->add_option("--db", io->db, "the database (toadbase solve toads-frogs-cgt ...)")->required();
  index->add_flag("--json", io->json, "what was made, as JSON");
  host.examples(index, {"toadbase cgt index --db data/cgt16"});

  auto fo = std::make_shared<FindOptions>();
  auto* find = top->add_subcommand("find", "the boards with a value, or with values of a kind: how many of each length, the shortest");
  find->add_option("--db", fo->db, "the database (with its index: toadbase cgt index)")->required();
  dash_positionals(host, find, "value", fo->values, "a value as query prints it: *2, ^*, 1/8, {3|3}, +-1 (any notation of the same game)");
  find->add_option("--outcome", fo->outcome, "only values of this outcome class: L, R, N or P");
  find->add_option("--kind", fo->kind, "only values of this kind: number, nimber, infinitesimal, number-plus-infinitesimal, hot");
  find->add_option("--temperature-at-least", fo->temperature, "only values at least this hot (a number: 1, 3/2)");
  find->add_option("--mean", fo->mean, "only values of this mean (a number)");
  find->add_option("--limit", fo->limit, "the shortest boards listed (0.." + std::to_string(kFindMaxLimit) + ")")
      ->check(CLI::Range(0, kFindMaxLimit));
  find->add_option("--max-value-steps", fo->max_value_steps,
                   "refuse a VALUE that takes more work than this (exit 2): steps, each a form made, compared, added "
                   "or drawn, as serve's option (default: unbounded; Ctrl-C ends it)")
      ->check(CLI::Range(uint64_t{1000}, uint64_t{1} << 40));
  find->add_flag("--json", fo->json, "the answer as JSON");
  find->callback([find, fo] {
    fo->outcome_given = find->count("--outcome") > 0;
    fo->kind_given = find->count("--kind") > 0;
    fo->temperature_given = find->count("--temperature-at-least") > 0;
    fo->mean_given = find->count("--mean") > 0;
  });
  host.examples(find, {"toadbase cgt find --db data/cgt16 '*2' --limit 3", "toadbase cgt find --db data/cgt16 --kind hot --temperature-at-least 2",
                       "toadbase cgt find --db data/cgt16 ^ --json"});

  auto to = std::make_shared<ThermographOptions>();
  auto* thermograph = top->add_subcommand(
      "thermograph", "a value's thermograph: its walls, mean and temperature (no database needed)");
  dash_positionals(host, thermograph, "values", to->values, "values as query prints them: {2|-1}, ^*, 1/8, +-1 (each one a line)");
  thermograph->add_flag("--json", to->json, "one JSON object a value");
  thermograph->callback([to] {
    if (to->values.empty()) throw CLI::ValidationError("values", "give a value, e.g. '{2|-1}'");
  });
  host.examples(thermograph, {"toadbase cgt thermograph '{2|-1}'", "toadbase cgt thermograph '{3|{1|-1}}' --json"});
  return {{sum, [o, &host] { return run_sum(*o, host); }},
          {index, [io, &host] { return run_index(*io, host); }},
          {find, [fo, &host] { return run_find(*fo, host); }},
          {thermograph, [to] { return run_thermograph(*to); }}};
}

}  // namespace toadbase::toads_frogs_cgt
