// toadbase export --db DIR FILE: every record in tier order, raw or as GamesCrafters' 16-bit
// records (each game's values mapped by its own record type).
#include <cstdio>
#include <fstream>

#include "tools/cli.hpp"
#include "tools/open.hpp"

namespace toadbase::tools {

namespace {

struct ExportOptions {
  Common c;
  std::string format = "raw", out_path;
};

int run_export(const ExportOptions& o) {
  const Opened d = open_database(o.c.db, true, 0);
  if (o.format != "raw" && o.format != "gamescrafters16")
    throw UserError("export: --format must be raw or gamescrafters16");
  if (o.format == "gamescrafters16" && !d.instance->win_lose())
    throw UserError("export: " + d.db->identity().game + " values (" + d.db->identity().record +
                    ") have no GamesCrafters 16-bit form; use --format raw");
  const std::string tmp = o.out_path + ".partial";
  {
    std::ofstream out(tmp, std::ios::binary);
    if (!out) throw UserError("export: cannot write " + tmp);
    d.instance->each_tier(*d.db, [&](TierId, const std::vector<uint8_t>& records) {
      if (o.format == "raw") {
        out.write(reinterpret_cast<const char*>(records.data()), static_cast<std::streamsize>(records.size()));
      } else {
        const std::vector<uint16_t> wide = d.instance->gamescrafters16(records);
        out.write(reinterpret_cast<const char*>(wide.data()), static_cast<std::streamsize>(wide.size() * 2));
      }
    });
    if (!out) throw UserError("export: writing " + tmp + " failed");
  }
  if (std::rename(tmp.c_str(), o.out_path.c_str()) != 0) throw UserError("export: cannot rename to " + o.out_path);
  return 0;
}

}  // namespace

Command add_export(CLI::App& root) {
  auto o = std::make_shared<ExportOptions>();
  auto* exp = root.add_subcommand("export", "write every record in tier order to a file");
  add_db_option(exp, o->c);
  exp->add_option("--format", o->format, "raw (one byte a record) or gamescrafters16 (16-bit records)");
  exp->add_option("output", o->out_path, "the file to write")->required();
  return {exp, [o] { return run_export(*o); }};
}

}  // namespace toadbase::tools
