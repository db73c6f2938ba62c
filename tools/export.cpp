// toadbase export --db DIR FILE: every record in tier order, as stored (raw), as GamesCrafters'
// 16-bit records, or as position<TAB>value<TAB>remoteness lines (what validate reads).
//
// The order: tiers in id order (`info --tiers` lists them), positions within a tier in index
// order (the game's ranking; `query --random` and the tsv name each position). Layouts:
//   raw              the records as stored, little-endian, record_bytes each (`info`): 1 for
//                    Toads and Frogs (the remoteness; odd = a win) and the frog puzzle (0 = the
//                    goal cannot be reached, else 1 + the moves to the goal), 8 for River Toad
//                    (surviving roll sequences in the low 61 bits, the best action in the top
//                    3), 17 for the forest policy
//   gamescrafters16  2 bytes little-endian: GamesmanOne's value in the top 4 bits (lose 1,
//                    win 4), the remoteness in the low 12
//   tsv              one line a position: position<TAB>win|lose<TAB>remoteness, after one
//                    `#` comment line naming the game and the columns
#include <cstdio>
#include <iostream>

#include "tools/cli.hpp"
#include "tools/open.hpp"

namespace toadbase::tools {

namespace {

/// Past this size export wants --force.
constexpr double kLargeExport = 1 << 30;

struct ExportOptions {
  Common c;
  std::string format = "raw", out_path;
  bool force = false;
};

/// Text gathered and written to `os` a MiB at a time.
class Buffered {
 public:
  explicit Buffered(std::ostream& os) : os_(os) {}
  std::string& text() { return text_; }
  /// After a whole line was added.
  void line_done() {
    if (text_.size() > (1 << 20)) flush();
  }
  void flush() {
    os_ << text_;
    text_.clear();
  }

 private:
  std::ostream& os_;
  std::string text_;
};

/// tsv of a game with values of its own: position<TAB>value lines (what validate reads).
int export_claims(const ExportOptions& o, const Opened& d, const ValueClaims& claims) {
  const uint64_t lines = claims.claim_lines(*d.db);
  // the longest board and a short value a line
  const double bytes = static_cast<double>(lines) * (2.0 * static_cast<double>(d.instance->start_position().size()) + 2.0);
  const std::string size = "about " + human_bytes(bytes) + " (" + std::to_string(lines) + " lines)";
  if (bytes > kLargeExport && !o.force)
    throw UsageError("export would write " + size + " to " + output_name(o.out_path) + "; give --force to write it");
  if (bytes > kLargeExport) std::cerr << "export: writing " << size << " to " << output_name(o.out_path) << "\n";
  OutputFile out(o.out_path);
  std::ostream& os = out.stream();
  os << "# " << d.db->identity().game << " " << dump(d.db->identity().parameters)
     << ": position<TAB>value, in the database's order\n";
  Buffered buf(os);
  claims.each_claim(*d.db, [&](const std::string& line) {
    buf.text() += line;
    buf.text() += '\n';
    buf.line_done();
  });
  buf.flush();
  out.commit();
  return kExitOk;
}

int run_export(const ExportOptions& o) {
  if (o.format != "raw" && o.format != "gamescrafters16" && o.format != "tsv")
    throw UsageError("export: --format must be raw, gamescrafters16 or tsv, not '" + o.format + "'");
  const Opened d = open_database(o.c.db, true, 0);
  const std::string game = d.db->identity().game;
  const WinLoseValues* values = d.instance->win_lose_values();
  if (o.format == "tsv" && !values)
    if (const ValueClaims* claims = d.instance->value_claims()) return export_claims(o, d, *claims);
  if (o.format != "raw" && !values)  // the database cannot answer this: exit 1
    throw UserError("export: " + game + " values (" + d.db->identity().record + ") are not win/lose: no " +
                    (o.format == "tsv" ? std::string("tsv (position, value, remoteness)") : "GamesCrafters 16-bit") +
                    " form; use --format raw");
  uint64_t records = 0;
  for (const auto& t : d.instance->tiers()) records += t.positions;
  const unsigned width = d.db->record_bytes();
  const std::string start = d.instance->start_position();
  // tsv: the start position's length and a value and remoteness of a few characters
  const double per_record = o.format == "raw" ? width : o.format == "gamescrafters16" ? 2 : static_cast<double>(start.size()) + 9.0;
  const double bytes = static_cast<double>(records) * per_record;
  const std::string size = (o.format == "tsv" ? "about " : "") + human_bytes(bytes) + " (" +
                           std::to_string(records) + " records" +
                           (o.format == "tsv" ? "" : " of " + std::to_string(static_cast<int>(per_record)) + " bytes") +
                           ")";
  if (bytes > kLargeExport && !o.force)
    throw UsageError("export would write " + size + " to " + output_name(o.out_path) + "; give --force to write it");
  if (bytes > kLargeExport) std::cerr << "export: writing " << size << " to " << output_name(o.out_path) << "\n";
  OutputFile out(o.out_path);
  std::ostream& os = out.stream();
  if (o.format == "tsv")
    os << "# " << game << " " << dump(d.db->identity().parameters)
       << ": position<TAB>value<TAB>remoteness, tiers in id order, positions in index order\n";
  Buffered buf(os);
  std::string& text = buf.text();
  d.instance->each_tier(*d.db, [&](TierId t, const std::vector<uint8_t>& raw) {
    if (o.format == "raw") {
      os.write(reinterpret_cast<const char*>(raw.data()), static_cast<std::streamsize>(raw.size()));
      return;
    }
    const std::vector<uint16_t> wide = values->gamescrafters16(raw);
    if (o.format == "gamescrafters16") {
      std::string le(wide.size() * 2, '\0');  // little-endian whatever the machine
      for (size_t i = 0; i < wide.size(); ++i) {
        le[2 * i] = static_cast<char>(wide[i] & 0xff);
        le[2 * i + 1] = static_cast<char>(wide[i] >> 8);
      }
      os.write(le.data(), static_cast<std::streamsize>(le.size()));
      return;
    }
    for (uint64_t i = 0; i < wide.size(); ++i) {
      const unsigned value = wide[i] >> 12, remoteness = wide[i] & 0xfff;
      text += d.instance->position_at(t, i);
      text += value == 4 ? "\twin\t" : value == 1 ? "\tlose\t" : "\ttie\t";
      text += std::to_string(remoteness);
      text += '\n';
      buf.line_done();
    }
  });
  buf.flush();
  out.commit();
  return kExitOk;
}

}  // namespace

Command add_export(CLI::App& root) {
  auto o = std::make_shared<ExportOptions>();
  auto* exp = root.add_subcommand("export", "write every record in tier order to a file (- for standard output)");
  add_db_option(exp, o->c);
  exp->add_option("--format", o->format,
                  "raw: the records as stored, record_bytes each (info says how many: 1 for Toads and Frogs "
                  "and the puzzle, 8 for River Toad); gamescrafters16: 2 bytes a record, GamesmanOne's value "
                  "in the top 4 bits and the remoteness below; tsv: position<TAB>value<TAB>remoteness lines "
                  "(what validate reads)");
  exp->add_flag("--force", o->force, "write even when the file would pass 1 GiB");
  exp->add_option("output", o->out_path, "the file to write (whole or not at all); - writes standard output")
      ->required();
  examples(exp, {"toadbase export --db data/tf10 --format gamescrafters16 tf10.bin",
                 "toadbase export --db data/tf10 --format tsv - | head",
                 "toadbase export --db data/tf10 --format tsv tf10.tsv && toadbase validate --db data/tf10 tf10.tsv"});
  return {exp, [o] { return run_export(*o); }};
}

}  // namespace toadbase::tools
