// toadbase serve --data DIR | --db PATH ...: every database over HTTP (routes: tools/server.hpp).
#include <pthread.h>
#include <tbb/global_control.h>
#include <tbb/info.h>

#include <csignal>
#include <iostream>
#include <optional>

#include "tools/cli.hpp"
#include "tools/server.hpp"

namespace toadbase::tools {

namespace {

struct ServeCliOptions {
  std::vector<std::string> data_dirs, db_paths;
  ServeOptions serve;
  size_t cache_mb = 256;
  int threads = 0;
  bool quiet = false;
};

int run_serve(const ServeCliOptions& o) {
  // the signals that stop the server are taken by this thread alone (sigwait below); the
  // server's threads, started after this, inherit the mask
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  // --threads bounds the cores requests' parallel work takes too (a query's prefetch fetches
  // blocks on oneTBB's threads): oneTBB's threads and the worker that asks, no more than
  // --threads together; never more than the cores (a bound above them would raise oneTBB's)
  std::optional<tbb::global_control> cores;
  if (o.threads > 0)
    cores.emplace(tbb::global_control::max_allowed_parallelism,
                  std::min<size_t>(static_cast<size_t>(o.threads), static_cast<size_t>(tbb::info::default_concurrency())));

  std::vector<std::string> warnings;
  auto dbs = open_served(o.data_dirs, o.db_paths, o.cache_mb << 20, warnings);
  for (const auto& w : warnings) std::cerr << "toadbase serve: warning: " << w << "\n";
  if (dbs.empty()) throw UserError("serve: no database to serve (every one given was skipped, see the warnings)");
  ServeOptions so = o.serve;
  so.limits.threads = o.threads;
  Server server(std::move(dbs), so);
  server.start();
  for (const auto& n : server.notices()) std::cerr << "toadbase serve: warning: " << n << "\n";
  if (!o.quiet)
    for (const auto& d : server.databases())
      std::cout << "serving " << d->id << ": " << d->game << " " << dump(camel_keys(d->opened.db->summary().at("parameters")))
                << " (" << d->path << ")\n";
  std::cout << "listening on " << server.url() << "  (GamesmanUni: " << server.url() << "uwapi/)" << std::endl;
  int sig = 0;
  sigwait(&stop_signals, &sig);
  server.stop();
  if (!o.quiet) std::cout << "stopped (" << (sig == SIGINT ? "SIGINT" : "SIGTERM") << ")" << std::endl;
  return 0;
}

}  // namespace

Command add_serve(CLI::App& root) {
  auto o = std::make_shared<ServeCliOptions>();
  auto* serve = root.add_subcommand("serve", "answer databases over HTTP: GamesmanUni's API (/uwapi/), JSON (/api/), a page (/)");
  serve->add_option("--data", o->data_dirs, "serve every database one level under this directory (repeatable)")
      ->type_name("DIR");
  serve->add_option("--db", o->db_paths, "serve this database (repeatable)")->type_name("PATH");
  serve->add_option("--host", o->serve.host, "the address to listen on (0.0.0.0: every interface)")
      ->capture_default_str();
  serve->add_option("--port", o->serve.port, "the port (0: any free port; the URL is printed)")
      ->check(CLI::Range(0, 65535))
      ->capture_default_str();
  add_threads_option(serve, o->threads, "worker threads");
  serve->add_option("--cache", o->cache_mb, "block cache of each database, MiB")
      ->check(CLI::Range(1, 1 << 20))
      ->capture_default_str();
  serve->add_option("--max-connections", o->serve.limits.max_connections, "connections open at once")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  serve->add_option("--max-connections-per-address", o->serve.limits.max_per_address,
                    "connections open at once from one client address")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  serve->add_option("--heavy-threads", o->serve.limits.heavy_threads,
                    "threads for heavy requests (a game's own routes, POSTed batches), at a lower priority")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  serve->add_option("--max-value-steps", o->serve.value_steps,
                    "work one request may ask on typed game values (find, validate, a value's "
                    "thermograph): steps, each a form made, compared, added or drawn; past them 413")
      ->check(CLI::Range(uint64_t{1000}, uint64_t{1} << 40))
      ->capture_default_str();
  serve->add_flag("--quiet", o->quiet, "print only the URL");
  serve->footer(
      "Examples:\n"
      "  toadbase serve --data data/\n"
      "  toadbase serve --db data/tf16 --db data/frogs8 --port 9000 --host 0.0.0.0\n"
      "  curl 'http://127.0.0.1:8080/uwapi/toads-frogs/tf16/positions/?p=1_TT--FF'");
  return {serve, [serve, o] {
            if (o->data_dirs.empty() && o->db_paths.empty()) {
              std::cerr << "toadbase serve: give --data DIR or --db PATH (see toadbase serve --help)\n";
              return 2;
            }
            return run_serve(*o);
          }};
}

}  // namespace toadbase::tools
