#include "tools/cli.hpp"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace toadbase::tools {

void add_db_option(CLI::App* s, Common& c) { s->add_option("--db", c.db, "the database directory")->required(); }

void add_threads_option(CLI::App* s, Common& c) {
  s->add_option("--threads", c.threads, "worker threads (default: all cores)")->check(CLI::NonNegativeNumber);
}

void add_json_flag(CLI::App* s, Common& c) { s->add_flag("--json", c.json_out, "print JSON"); }

std::unique_ptr<Progress> make_progress(const std::string& task, uint64_t positions, uint64_t tiers, bool quiet) {
  if (quiet) return std::make_unique<Progress>(nullptr, false, task, positions, tiers);
  return std::make_unique<Progress>(&std::cerr, isatty(2) != 0, task, positions, tiers);
}

std::string human_bytes(double b) {
  char buf[32];
  if (b >= 1 << 30) {
    std::snprintf(buf, sizeof buf, "%.2f GiB", b / (1 << 30));
  } else if (b >= 1 << 20) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", b / (1 << 20));
  } else if (b >= 1 << 10) {
    std::snprintf(buf, sizeof buf, "%.1f KiB", b / (1 << 10));
  } else {
    std::snprintf(buf, sizeof buf, "%.0f B", b);
  }
  return buf;
}

}  // namespace toadbase::tools
