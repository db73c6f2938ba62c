#include "solver/core/distribute.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <unordered_set>

#include "solver/core/hash.hpp"

namespace toadbase {

std::vector<TierId> Distribution::reads_of(const TierPlan& plan, const Piece& p) const {
  std::vector<TierId> r = plan.reads[p.tier];
  if (plan.tail[p.tier] && p.hi < plan.size[p.tier]) r.pop_back();  // the tail is another piece's
  return r;
}

uint64_t Distribution::hash() const {
  Xxh64Stream h;
  auto put = [&](uint64_t v) { h.update(&v, sizeof v); };
  put(static_cast<uint64_t>(ranks));
  for (const Piece& p : pieces) put(p.tier), put(p.lo), put(p.hi), put(static_cast<uint64_t>(p.rank));
  for (size_t t = 0; t < reporter.size(); ++t) {
    put(static_cast<uint64_t>(reporter[t] + 1));
    for (int s : sinks[t]) put(static_cast<uint64_t>(s));
    put(UINT64_MAX);
    for (int s : recovered[t]) put(static_cast<uint64_t>(s));
    put(recovered_level[t]);
  }
  return h.digest();
}

namespace {

uint64_t sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

}  // namespace

Distribution distribute(const TierPlan& plan, const std::vector<char>& skip, int ranks, const CostModel& model) {
  if (ranks < 1) throw std::invalid_argument("a distributed solve needs at least one rank");
  const TierId n = static_cast<TierId>(plan.size.size());
  const size_t K = static_cast<size_t>(ranks);
  const uint64_t width = model.record_bytes;
  auto threads = [&](size_t r) -> uint64_t {
    return r < model.threads.size() && model.threads[r] > 0 ? static_cast<uint64_t>(model.threads[r]) : 1;
  };
  const uint32_t levels = static_cast<uint32_t>(plan.by_level.size());
  Distribution d;
  d.ranks = ranks;
  d.levels = levels;

  // ---- components: tiers joined by what they read (a committed tier joins nothing: rank 0
  // sends it). A component that fits one rank's share is solved whole on one rank, so its
  // tiers cross no wire; a larger one gets a group of ranks, as many as its share.
  std::vector<TierId> parent(n);
  std::iota(parent.begin(), parent.end(), TierId{0});
  auto root = [&](TierId t) {
    while (parent[t] != t) t = parent[t] = parent[parent[t]];
    return t;
  };
  for (TierId t = 0; t < n; ++t)
    if (!skip[t])
      for (TierId c : plan.reads[t])
        if (!skip[c]) {
          const TierId a = root(t), b = root(c);
          if (a != b) parent[std::max(a, b)] = std::min(a, b);
        }
  auto tier_cost = [&](TierId t) {
    return plan.prefix[t] * model.scan_ps + (plan.size[t] - plan.prefix[t]) * model.tail_ps +
           plan.kept[t] * width * model.commit_ps_per_byte;
  };
  auto write_cost = [&](TierId t) { return plan.kept[t] * width * model.write_ps_per_byte; };
  std::vector<uint64_t> comp_work(n, 0);
  uint64_t total_work = 0, scanned = 0, writing = 0;
  for (TierId t = 0; t < n; ++t)
    if (!skip[t]) comp_work[root(t)] += tier_cost(t), total_work += tier_cost(t), scanned += plan.prefix[t], writing += write_cost(t);
  std::vector<TierId> comps;
  for (TierId t = 0; t < n; ++t)
    if (!skip[t] && root(t) == t) comps.push_back(t);
  std::stable_sort(comps.begin(), comps.end(), [&](TierId a, TierId b) { return comp_work[a] > comp_work[b]; });
  std::vector<std::vector<int>> group(n);  // [component root]: its ranks
  std::vector<int> all(K);
  std::iota(all.begin(), all.end(), 0);
  const uint64_t share = std::max<uint64_t>(1, (total_work + writing) / K);
  std::vector<uint64_t> planned(K, 0);
  planned[0] = writing;
  for (TierId c : comps) {
    if (!model.whole_components || K == 1) {
      group[c] = all;
      continue;
    }
    const uint64_t g = comp_work[c] > share ? std::min<uint64_t>(K, (comp_work[c] + share - 1) / share) : 1;
    std::vector<int> by_load = all;
    std::stable_sort(by_load.begin(), by_load.end(), [&](int a, int b) { return planned[static_cast<size_t>(a)] < planned[static_cast<size_t>(b)]; });
    group[c].assign(by_load.begin(), by_load.begin() + static_cast<ptrdiff_t>(g));
    std::sort(group[c].begin(), group[c].end());
    for (int r : group[c]) planned[static_cast<size_t>(r)] += comp_work[c] / g;
  }

  // ---- pieces: a large tier of a component spread over several ranks is cut in pieces
  if (model.piece_positions) {
    d.piece_positions = model.piece_positions;
  } else if (ranks == 1) {
    d.piece_positions = UINT64_MAX;
  } else {
    d.piece_positions = std::max<uint64_t>(kMinPiece, scanned / (K * std::max<uint32_t>(levels, 1)));
  }
  d.first_piece.assign(n + 1, 0);
  for (TierId t = 0; t < n; ++t) {
    d.first_piece[t] = static_cast<uint32_t>(d.pieces.size());
    if (skip[t]) continue;
    const uint64_t prefix = plan.prefix[t], size = plan.size[t];
    const bool spread = group[root(t)].size() > 1;
    const uint64_t count = spread && prefix > d.piece_positions ? (prefix + d.piece_positions - 1) / d.piece_positions : 1;
    for (uint64_t i = 0; i < count; ++i) {
      const uint64_t lo = prefix / count * i + std::min(i, prefix % count);
      const uint64_t hi = i + 1 == count ? size : prefix / count * (i + 1) + std::min(i + 1, prefix % count);
      d.pieces.push_back({t, lo, hi, 0});
    }
  }
  d.first_piece[n] = static_cast<uint32_t>(d.pieces.size());

  // ---- assignment, level by level: each piece to the rank of its group where it would
  // finish first, its inputs from other ranks counted (compressing them, moving them)
  auto cost_ps = [&](const Piece& p) {
    const uint64_t prefix = plan.prefix[p.tier];
    const uint64_t scan = std::min(p.hi, prefix) > p.lo ? std::min(p.hi, prefix) - p.lo : 0;
    return scan * model.scan_ps + (p.hi - p.lo - scan) * model.tail_ps;
  };
  auto wire_ps = [&](TierId c) { return plan.size[c] * width * model.wire_ps_per_byte; };
  std::vector<uint64_t> clock(K, 0), ready(n, 0);
  std::vector<int> sole(n, -2);  // the rank holding all of t's pieces; -1: several; -2: none yet
  std::unordered_set<uint64_t> arrived;  // (rank, tier): an input already received there
  auto key = [&](size_t r, TierId c) { return static_cast<uint64_t>(r) * n + c; };
  d.load.assign(K, {});
  std::vector<uint32_t> order;
  for (uint32_t L = 0; L < levels; ++L) {
    order.clear();
    for (TierId t : plan.by_level[L])
      for (uint32_t i = d.first_piece[t]; i < d.first_piece[t + 1]; ++i) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return cost_ps(d.pieces[a]) > cost_ps(d.pieces[b]); });
    for (uint32_t i : order) {
      Piece& p = d.pieces[i];
      const std::vector<TierId> reads = d.reads_of(plan, p);
      // the database's share of the tier (compressing its kept records) goes with its last piece
      const uint64_t work = cost_ps(p) + (p.hi == plan.size[p.tier] ? plan.kept[p.tier] * width * model.commit_ps_per_byte : 0);
      // each rank of the group: when the piece would finish there, and how many of the bytes
      // it reads are there already
      struct Option {
        size_t rank;
        uint64_t finish, busy, local;
      };
      std::vector<Option> options;
      uint64_t soonest = UINT64_MAX;
      for (int rank : group[root(p.tier)]) {
        const size_t r = static_cast<size_t>(rank);
        uint64_t start = clock[r], receive = 0, local = 0;
        for (TierId c : reads) {
          uint64_t at;
          if (skip[c]) {
            at = 0;
            if (r != 0 && !arrived.count(key(r, c))) at = wire_ps(c), receive += wire_ps(c) / 4;
          } else if (sole[c] == static_cast<int>(r) || arrived.count(key(r, c))) {
            at = ready[c];
            local += plan.size[c];
          } else {
            at = sat_add(ready[c], wire_ps(c) / d.pieces_of(c));  // its pieces travel side by side
            receive += wire_ps(c) / 4;  // decompressing; the sender compresses (three quarters)
          }
          start = std::max(start, at);
        }
        const uint64_t busy = (work + receive) / threads(r);
        options.push_back({r, sat_add(start, busy), busy, local});
        soonest = std::min(soonest, options.back().finish);
      }
      // of the ranks that finish it within an eighth of its own time of the soonest, the one
      // that holds most of what it reads (the rest of its chain stays there too)
      const uint64_t slack = work / 8 / threads(options.front().rank);
      const Option* pick = nullptr;
      for (const Option& o : options)
        if (o.finish <= sat_add(soonest, slack) &&
            (!pick || o.local > pick->local || (o.local == pick->local && o.finish < pick->finish)))
          pick = &o;
      const size_t best = pick->rank;
      const uint64_t best_finish = pick->finish, best_busy = pick->busy;
      p.rank = static_cast<int>(best);
      clock[best] = best_finish;
      ready[p.tier] = std::max(ready[p.tier], best_finish);
      int& s = sole[p.tier];
      s = s == -2 ? static_cast<int>(best) : (s == static_cast<int>(best) ? s : -1);
      for (TierId c : reads) {
        if (arrived.insert(key(best, c)).second && !skip[c] && sole[c] != static_cast<int>(best) && sole[c] >= 0) {
          const uint64_t compress = wire_ps(c) * 3 / 4 / threads(static_cast<size_t>(sole[c]));
          clock[static_cast<size_t>(sole[c])] += compress;
          d.load[static_cast<size_t>(sole[c])].busy_ps += compress;
        }
      }
      RankLoad& l = d.load[best];
      l.positions += p.hi - p.lo;
      ++l.pieces;
      l.busy_ps += best_busy;
      if (p.hi == plan.size[p.tier] && K > 1) {  // rank 0 writes the tier
        const uint64_t w = write_cost(p.tier) / threads(0);
        clock[0] = sat_add(clock[0], w);
        d.load[0].busy_ps += w;
      }
    }
  }
  d.makespan_ps = *std::max_element(clock.begin(), clock.end());

  // ---- who reads what, who reports it, where every piece goes
  std::vector<std::vector<int>> readers(n);
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> need(n);  // parallel to readers: first and last level read there
  for (const Piece& p : d.pieces)
    for (TierId c : d.reads_of(plan, p)) {
      auto& rs = readers[c];
      const auto it = std::lower_bound(rs.begin(), rs.end(), p.rank);
      const size_t k = static_cast<size_t>(it - rs.begin());
      const uint32_t L = plan.level[p.tier];
      if (it == rs.end() || *it != p.rank) {
        rs.insert(it, p.rank);
        need[c].insert(need[c].begin() + static_cast<ptrdiff_t>(k), {L, L});
      } else {
        need[c][k].first = std::min(need[c][k].first, L);
        need[c][k].second = std::max(need[c][k].second, L);
      }
    }
  d.reporter.assign(n, -1);
  d.sinks.assign(n, {});
  d.recovered.assign(n, {});
  d.recovered_level.assign(n, 0);
  for (TierId t = 0; t < n; ++t) {
    if (skip[t]) {
      uint32_t at = UINT32_MAX;
      for (size_t k = 0; k < readers[t].size(); ++k)
        if (readers[t][k] != 0) d.recovered[t].push_back(readers[t][k]), at = std::min(at, need[t][k].first);
      d.recovered_level[t] = d.recovered[t].empty() ? 0 : at;
      for (int r : d.recovered[t]) {
        d.load[0].bytes_sent += plan.size[t] * width;
        d.load[static_cast<size_t>(r)].bytes_received += plan.size[t] * width;
      }
      continue;
    }
    std::vector<int> whole = readers[t];
    if (sole[t] >= 0 && !std::binary_search(whole.begin(), whole.end(), sole[t]))
      whole.insert(std::lower_bound(whole.begin(), whole.end(), sole[t]), sole[t]);
    const int rep = whole.empty() || whole.front() == 0 ? 0 : whole.front();
    d.reporter[t] = rep;
    d.sinks[t] = readers[t];
    if (d.split(t) && !std::binary_search(d.sinks[t].begin(), d.sinks[t].end(), rep))
      d.sinks[t].insert(std::lower_bound(d.sinks[t].begin(), d.sinks[t].end(), rep), rep);
    for (uint32_t i = d.first_piece[t]; i < d.first_piece[t + 1]; ++i) {
      const Piece& p = d.pieces[i];
      for (int s : d.sinks[t])
        if (s != p.rank) {
          d.load[static_cast<size_t>(p.rank)].bytes_sent += (p.hi - p.lo) * width;
          d.load[static_cast<size_t>(s)].bytes_received += (p.hi - p.lo) * width;
        }
    }
    if (rep != 0) {
      d.load[static_cast<size_t>(rep)].bytes_sent += plan.kept[t] * width;
      d.load[0].bytes_received += plan.kept[t] * width;
    }
  }

  // ---- memory: a tier is held on a rank that reads it from the level it is first needed
  // there (or solved there) to the last level that reads it there; a piece that rank does not
  // read, only while it is solved (its whole tier on a reporter that assembles it)
  std::vector<std::vector<int64_t>> delta(K, std::vector<int64_t>(levels + 1, 0));
  auto hold = [&](size_t r, uint32_t from, uint32_t to, uint64_t bytes) {
    delta[r][from] += static_cast<int64_t>(bytes);
    delta[r][to + 1] -= static_cast<int64_t>(bytes);
  };
  for (TierId t = 0; t < n; ++t) {
    const uint64_t bytes = plan.size[t] * width;
    for (size_t k = 0; k < readers[t].size(); ++k) {
      uint32_t from = need[t][k].first;
      for (uint32_t i = d.first_piece[t]; i < d.first_piece[t + 1]; ++i)
        if (d.pieces[i].rank == readers[t][k]) from = std::min(from, plan.level[t]);
      hold(static_cast<size_t>(readers[t][k]), from, need[t][k].second, bytes);
    }
    if (skip[t]) continue;
    const uint32_t L = plan.level[t];
    const int rep = d.reporter[t];
    const bool rep_reads = std::binary_search(readers[t].begin(), readers[t].end(), rep);
    if (!rep_reads) hold(static_cast<size_t>(rep), L, std::min(L + 1, levels - 1), bytes);
    for (uint32_t i = d.first_piece[t]; i < d.first_piece[t + 1]; ++i) {
      const Piece& p = d.pieces[i];
      if (p.rank == rep || std::binary_search(readers[t].begin(), readers[t].end(), p.rank)) continue;
      hold(static_cast<size_t>(p.rank), L, L, (p.hi - p.lo) * width);
    }
  }
  for (size_t r = 0; r < K; ++r) {
    int64_t now = 0, peak = 0;
    for (uint32_t L = 0; L < levels; ++L) peak = std::max(peak, now += delta[r][L]);
    d.load[r].peak_bytes = static_cast<uint64_t>(peak);
  }
  return d;
}

}  // namespace toadbase
