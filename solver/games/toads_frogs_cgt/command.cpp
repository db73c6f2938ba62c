// `toadbase cgt sum --db D 'TT--F|T-TFF' ...`: strips separated by walls add up.
//
// A wall between two strips stops every jump and slide across it, so the board is the sum
// of its strips. (A board does not split into a sum at any fixed pattern of its own cells:
// TFT-- is 3, while TF + T-- is 2.) Each strip's value comes from the database; the sum is
// made in a FormTable of its own, and printed like a query's value.
#include <CLI/CLI.hpp>
#include <iostream>

#include "solver/games/toads_frogs_cgt/instance.hpp"
#include "solver/games/toads_frogs_cgt/module.hpp"

namespace toadbase::toads_frogs_cgt {

namespace {

struct SumOptions {
  std::string db;
  std::vector<std::string> sums;
  bool text = false;
};

int run_sum(const SumOptions& o, const Host& host) {
  const OpenedDatabase d = host.open(o.db, Module::kName);
  const auto* inst = dynamic_cast<const CgtInstance*>(d.instance.get());
  if (!inst) throw std::logic_error("cgt sum: not a CGT instance");
  const FormReader reader(*d.source, inst->layout());
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

}  // namespace

std::vector<GameCommand> Module::add_commands(CLI::App& root, const Host& host) {
  auto* top = root.add_subcommand("cgt", "Toads and Frogs' combinatorial game values from a toads-frogs-cgt database");
  top->require_subcommand(1);
  auto o = std::make_shared<SumOptions>();
  auto* sum = top->add_subcommand("sum", "the value of strips separated by walls (|): the sum of their values, as JSON");
  sum->add_option("--db", o->db, "the database (toadbase solve toads-frogs-cgt ...)")->required();
  sum->add_option("sums", o->sums, "strips separated by |, e.g. 'TT--F|T-TFF'; each argument one sum");
  sum->allow_extras();  // a strip may start with '-'
  sum->add_flag("--text", o->text, "one line a sum instead of JSON");
  // once parsed: strips that start with '-' came as extras; no strip at all is a usage error
  sum->callback([sum, o] {
    for (const auto& extra : sum->remaining()) o->sums.push_back(extra);
    if (o->sums.empty()) throw CLI::ValidationError("sums", "give strips separated by |, e.g. 'TT--F|T-TFF'");
  });
  return {{sum, [o, &host] { return run_sum(*o, host); }}};
}

}  // namespace toadbase::toads_frogs_cgt
