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

uint64_t Distribution::busiest_peak() const {
  uint64_t peak = 0;
  for (const RankLoad& l : load) peak = std::max(peak, l.peak_bytes);
  return peak;
}

uint64_t Distribution::hash() const {
  Xxh64Stream h;
  auto put = [&](uint64_t v) { h.update(&v, sizeof v); };
  put(static_cast<uint64_t>(ranks));
  put(levels), put(fitted);  // a schedule moved to keep a budget has more levels
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

// The plan, made in five passes over the tiers: components and their groups of ranks, pieces,
// the assignment of pieces to ranks, the routes of what each rank solves, and memory.
class Planner {
 public:
  Planner(const TierPlan& plan, const std::vector<char>& skip, int ranks, const CostModel& model)
      : plan_(plan), skip_(skip), model_(model), n_(static_cast<TierId>(plan.size.size())),
        K_(static_cast<size_t>(ranks)), width_(model.record_bytes), levels_(static_cast<uint32_t>(plan.by_level.size())) {
    d_.ranks = ranks;
    d_.levels = levels_;
  }

  Distribution make() {
    components();
    cut_pieces();
    d_.load.assign(K_, {});
    clock_.assign(K_, 0);
    ready_.assign(n_, 0);
    sole_.assign(n_, -2);
    for (uint32_t L = 0; L < levels_; ++L) assign_level(L);
    d_.makespan_ps = *std::max_element(clock_.begin(), clock_.end());
    find_readers();
    for (TierId t = 0; t < n_; ++t) route(t);
    memory();
    return std::move(d_);
  }

 private:
  uint64_t threads(size_t r) const {
    return r < model_.threads.size() && model_.threads[r] > 0 ? static_cast<uint64_t>(model_.threads[r]) : 1;
  }
  TierId root(TierId t) {
    while (parent_[t] != t) t = parent_[t] = parent_[parent_[t]];
    return t;
  }
  uint64_t tier_cost(TierId t) const {
    return plan_.prefix[t] * model_.scan_ps + (plan_.size[t] - plan_.prefix[t]) * model_.tail_ps +
           plan_.kept[t] * width_ * model_.commit_ps_per_byte;
  }
  uint64_t write_cost(TierId t) const { return plan_.kept[t] * width_ * model_.write_ps_per_byte; }
  uint64_t cost_ps(const Piece& p) const {
    const uint64_t prefix = plan_.prefix[p.tier];
    const uint64_t scan = std::min(p.hi, prefix) > p.lo ? std::min(p.hi, prefix) - p.lo : 0;
    return scan * model_.scan_ps + (p.hi - p.lo - scan) * model_.tail_ps;
  }
  uint64_t wire_ps(TierId c) const { return plan_.size[c] * width_ * model_.wire_ps_per_byte; }
  uint64_t key(size_t r, TierId c) const { return static_cast<uint64_t>(r) * n_ + c; }

  // ---- components: tiers joined by what they read (a committed tier joins nothing: rank 0
  // sends it). A component that fits one rank's share is solved whole on one rank, so its
  // tiers cross no wire; a larger one gets a group of ranks, as many as its share.
  void components() {
    parent_.resize(n_);
    std::iota(parent_.begin(), parent_.end(), TierId{0});
    for (TierId t = 0; t < n_; ++t)
      if (!skip_[t])
        for (TierId c : plan_.reads[t])
          if (!skip_[c]) {
            const TierId a = root(t), b = root(c);
            if (a != b) parent_[std::max(a, b)] = std::min(a, b);
          }
    std::vector<uint64_t> comp_work(n_, 0);
    uint64_t total_work = 0, writing = 0;
    for (TierId t = 0; t < n_; ++t)
      if (!skip_[t])
        comp_work[root(t)] += tier_cost(t), total_work += tier_cost(t), scanned_ += plan_.prefix[t], writing += write_cost(t);
    std::vector<TierId> comps;
    for (TierId t = 0; t < n_; ++t)
      if (!skip_[t] && root(t) == t) comps.push_back(t);
    std::stable_sort(comps.begin(), comps.end(), [&](TierId a, TierId b) { return comp_work[a] > comp_work[b]; });
    group_.assign(n_, {});
    std::vector<int> all(K_);
    std::iota(all.begin(), all.end(), 0);
    const uint64_t share = std::max<uint64_t>(1, (total_work + writing) / K_);
    std::vector<uint64_t> planned(K_, 0);
    planned[0] = writing;
    for (TierId c : comps) {
      if (!model_.whole_components || K_ == 1) {
        group_[c] = all;
        continue;
      }
      const uint64_t g = comp_work[c] > share ? std::min<uint64_t>(K_, (comp_work[c] + share - 1) / share) : 1;
      std::vector<int> by_load = all;
      std::stable_sort(by_load.begin(), by_load.end(),
                       [&](int a, int b) { return planned[static_cast<size_t>(a)] < planned[static_cast<size_t>(b)]; });
      group_[c].assign(by_load.begin(), by_load.begin() + static_cast<ptrdiff_t>(g));
      std::sort(group_[c].begin(), group_[c].end());
      for (int r : group_[c]) planned[static_cast<size_t>(r)] += comp_work[c] / g;
    }
  }

  // ---- pieces: a large tier of a component spread over several ranks is cut in pieces
  void cut_pieces() {
    if (model_.piece_positions) {
      d_.piece_positions = model_.piece_positions;
    } else if (K_ == 1) {
      d_.piece_positions = UINT64_MAX;
    } else {
      d_.piece_positions = std::max<uint64_t>(kMinPiece, scanned_ / (K_ * std::max<uint32_t>(levels_, 1)));
    }
    d_.first_piece.assign(n_ + 1, 0);
    for (TierId t = 0; t < n_; ++t) {
      d_.first_piece[t] = static_cast<uint32_t>(d_.pieces.size());
      if (skip_[t]) continue;
      const uint64_t prefix = plan_.prefix[t], size = plan_.size[t], each = d_.piece_positions;
      const bool spread = group_[root(t)].size() > 1;
      const uint64_t count = spread && prefix > each ? (prefix + each - 1) / each : 1;
      for (uint64_t i = 0; i < count; ++i) {
        const uint64_t lo = prefix / count * i + std::min(i, prefix % count);
        const uint64_t hi = i + 1 == count ? size : prefix / count * (i + 1) + std::min(i + 1, prefix % count);
        d_.pieces.push_back({t, lo, hi, 0});
      }
    }
    d_.first_piece[n_] = static_cast<uint32_t>(d_.pieces.size());
  }

  // ---- assignment, level by level: each piece to the rank of its group where it would
  // finish first, its inputs from other ranks counted (compressing them, moving them)
  void assign_level(uint32_t L) {
    std::vector<uint32_t> order;
    for (TierId t : plan_.by_level[L])
      for (uint32_t i = d_.first_piece[t]; i < d_.first_piece[t + 1]; ++i) order.push_back(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return cost_ps(d_.pieces[a]) > cost_ps(d_.pieces[b]); });
    for (uint32_t i : order) assign(d_.pieces[i]);
  }

  // a rank of the piece's group: when the piece would finish there, and how many of the
  // bytes it reads are there already
  struct Option {
    size_t rank;
    uint64_t finish, busy, local;
  };

  Option option(size_t r, uint64_t work, const std::vector<TierId>& reads) const {
    uint64_t start = clock_[r], receive = 0, local = 0;
    for (TierId c : reads) {
      uint64_t at;
      if (skip_[c]) {
        at = 0;
        if (r != 0 && !arrived_.count(key(r, c))) at = wire_ps(c), receive += wire_ps(c) / 4;
      } else if (sole_[c] == static_cast<int>(r) || arrived_.count(key(r, c))) {
        at = ready_[c];
        local += plan_.size[c];
      } else {
        at = sat_add(ready_[c], wire_ps(c) / d_.pieces_of(c));  // its pieces travel side by side
        receive += wire_ps(c) / 4;  // decompressing; the sender compresses (three quarters)
      }
      start = std::max(start, at);
    }
    const uint64_t busy = (work + receive) / threads(r);
    return {r, sat_add(start, busy), busy, local};
  }

  void assign(Piece& p) {
    const std::vector<TierId> reads = d_.reads_of(plan_, p);
    // the database's share of the tier (compressing its kept records) goes with its last piece
    const uint64_t work =
        cost_ps(p) + (p.hi == plan_.size[p.tier] ? plan_.kept[p.tier] * width_ * model_.commit_ps_per_byte : 0);
    std::vector<Option> options;
    uint64_t soonest = UINT64_MAX;
    for (int rank : group_[root(p.tier)]) {
      options.push_back(option(static_cast<size_t>(rank), work, reads));
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
    p.rank = static_cast<int>(best);
    clock_[best] = pick->finish;
    ready_[p.tier] = std::max(ready_[p.tier], pick->finish);
    int& s = sole_[p.tier];
    s = s == -2 ? static_cast<int>(best) : (s == static_cast<int>(best) ? s : -1);
    for (TierId c : reads) {
      if (arrived_.insert(key(best, c)).second && !skip_[c] && sole_[c] != static_cast<int>(best) && sole_[c] >= 0) {
        const uint64_t compress = wire_ps(c) * 3 / 4 / threads(static_cast<size_t>(sole_[c]));
        clock_[static_cast<size_t>(sole_[c])] += compress;
        d_.load[static_cast<size_t>(sole_[c])].busy_ps += compress;
      }
    }
    RankLoad& l = d_.load[best];
    l.positions += p.hi - p.lo;
    ++l.pieces;
    l.busy_ps += pick->busy;
    if (p.hi == plan_.size[p.tier] && K_ > 1) {  // rank 0 writes the tier
      const uint64_t w = write_cost(p.tier) / threads(0);
      clock_[0] = sat_add(clock_[0], w);
      d_.load[0].busy_ps += w;
    }
  }

  // ---- who reads what, and from which level to which there
  void find_readers() {
    readers_.assign(n_, {});
    need_.assign(n_, {});
    for (const Piece& p : d_.pieces)
      for (TierId c : d_.reads_of(plan_, p)) {
        auto& rs = readers_[c];
        const auto it = std::lower_bound(rs.begin(), rs.end(), p.rank);
        const size_t k = static_cast<size_t>(it - rs.begin());
        const uint32_t L = plan_.level[p.tier];
        if (it == rs.end() || *it != p.rank) {
          rs.insert(it, p.rank);
          need_[c].insert(need_[c].begin() + static_cast<ptrdiff_t>(k), {L, L});
        } else {
          need_[c][k].first = std::min(need_[c][k].first, L);
          need_[c][k].second = std::max(need_[c][k].second, L);
        }
      }
    d_.reporter.assign(n_, -1);
    d_.sinks.assign(n_, {});
    d_.recovered.assign(n_, {});
    d_.recovered_level.assign(n_, 0);
  }

  // ---- who reports tier t, where every piece of it goes (a committed tier: where rank 0
  // sends it, and at which level)
  void route(TierId t) {
    const std::vector<int>& readers = readers_[t];
    if (skip_[t]) {
      uint32_t at = UINT32_MAX;
      for (size_t k = 0; k < readers.size(); ++k)
        if (readers[k] != 0) d_.recovered[t].push_back(readers[k]), at = std::min(at, need_[t][k].first);
      d_.recovered_level[t] = d_.recovered[t].empty() ? 0 : at;
      for (int r : d_.recovered[t]) {
        d_.load[0].bytes_sent += plan_.size[t] * width_;
        d_.load[static_cast<size_t>(r)].bytes_received += plan_.size[t] * width_;
      }
      return;
    }
    std::vector<int> whole = readers;
    if (sole_[t] >= 0 && !std::binary_search(whole.begin(), whole.end(), sole_[t]))
      whole.insert(std::lower_bound(whole.begin(), whole.end(), sole_[t]), sole_[t]);
    const int rep = whole.empty() || whole.front() == 0 ? 0 : whole.front();
    d_.reporter[t] = rep;
    std::vector<int>& sinks = d_.sinks[t];
    sinks = readers;
    if (d_.split(t) && !std::binary_search(sinks.begin(), sinks.end(), rep))
      sinks.insert(std::lower_bound(sinks.begin(), sinks.end(), rep), rep);
    for (uint32_t i = d_.first_piece[t]; i < d_.first_piece[t + 1]; ++i) {
      const Piece& p = d_.pieces[i];
      for (int s : sinks)
        if (s != p.rank) {
          d_.load[static_cast<size_t>(p.rank)].bytes_sent += (p.hi - p.lo) * width_;
          d_.load[static_cast<size_t>(s)].bytes_received += (p.hi - p.lo) * width_;
        }
    }
    if (rep != 0) {
      d_.load[static_cast<size_t>(rep)].bytes_sent += plan_.kept[t] * width_;
      d_.load[0].bytes_received += plan_.kept[t] * width_;
    }
  }

  // ---- memory: a tier is held on a rank that reads it from the level it is first needed
  // there (or solved there) to the last level that reads it there; a piece that rank does not
  // read, only while it is solved (its whole tier on a reporter that assembles it)
  void memory() {
    std::vector<std::vector<int64_t>> delta(K_, std::vector<int64_t>(levels_ + 1, 0));
    auto hold = [&](size_t r, uint32_t from, uint32_t to, uint64_t bytes) {
      delta[r][from] += static_cast<int64_t>(bytes);
      delta[r][to + 1] -= static_cast<int64_t>(bytes);
    };
    for (TierId t = 0; t < n_; ++t) {
      const uint64_t bytes = plan_.size[t] * width_;
      const std::vector<int>& readers = readers_[t];
      for (size_t k = 0; k < readers.size(); ++k) {
        uint32_t from = need_[t][k].first;
        for (uint32_t i = d_.first_piece[t]; i < d_.first_piece[t + 1]; ++i)
          if (d_.pieces[i].rank == readers[k]) from = std::min(from, plan_.level[t]);
        hold(static_cast<size_t>(readers[k]), from, need_[t][k].second, bytes);
      }
      if (skip_[t]) continue;
      const uint32_t L = plan_.level[t];
      const int rep = d_.reporter[t];
      const bool rep_reads = std::binary_search(readers.begin(), readers.end(), rep);
      if (!rep_reads) hold(static_cast<size_t>(rep), L, std::min(L + 1, levels_ - 1), bytes);
      for (uint32_t i = d_.first_piece[t]; i < d_.first_piece[t + 1]; ++i) {
        const Piece& p = d_.pieces[i];
        if (p.rank == rep || std::binary_search(readers.begin(), readers.end(), p.rank)) continue;
        hold(static_cast<size_t>(p.rank), L, L, (p.hi - p.lo) * width_);
      }
    }
    for (size_t r = 0; r < K_; ++r) {
      int64_t now = 0, peak = 0;
      for (uint32_t L = 0; L < levels_; ++L) peak = std::max(peak, now += delta[r][L]);
      d_.load[r].peak_bytes = static_cast<uint64_t>(peak);
    }
  }

  const TierPlan& plan_;
  const std::vector<char>& skip_;
  const CostModel& model_;
  const TierId n_;
  const size_t K_;
  const uint64_t width_;
  const uint32_t levels_;
  Distribution d_;
  std::vector<TierId> parent_;             // components: union-find
  std::vector<std::vector<int>> group_;    // [component root]: its ranks
  uint64_t scanned_ = 0;                   // positions scanned, all tiers
  std::vector<uint64_t> clock_, ready_;    // [rank]: busy until; [t]: solved at
  std::vector<int> sole_;                  // [t]: the rank holding all its pieces; -1: several; -2: none yet
  std::unordered_set<uint64_t> arrived_;   // (rank, tier): an input already received there
  std::vector<std::vector<int>> readers_;  // [t]: the ranks that read it
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> need_;  // parallel to readers_: first and last level read there
};

}  // namespace

Distribution distribute(const TierPlan& plan, const std::vector<char>& skip, int ranks, const CostModel& model) {
  if (ranks < 1) throw std::invalid_argument("a distributed solve needs at least one rank");
  return Planner(plan, skip, ranks, model).make();
}

}  // namespace toadbase
