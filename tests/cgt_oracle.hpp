// The CGT tests' oracle, written from the definitions (shared by test_cgt.cpp, which tests
// the engine, and test_cgt_db.cpp, which tests the database): Toads and Frogs' moves on
// board strings by the rules of the spec, games as plain option lists with canonical forms
// found by the book (dominated options removed, reversible ones bypassed, by the recursive
// definition of <=), and who wins by minimax. Nothing here calls the code under test but
// from_engine(), which copies an engine form for comparison.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "solver/cgt/cgt.hpp"
#include "support.hpp"

namespace cgt_oracle {

using toadbase::cgt::Dyadic;
using toadbase::cgt::FormId;
using toadbase::cgt::FormTable;

// ---- Toads and Frogs, by the rules in the spec ----------------------------------------

// Left (toads) moves: a toad slides right into an empty cell, or jumps one frog into the
// empty cell beyond. Right (frogs) mirror it.
inline std::vector<std::string> moves(const std::string& b, bool toads) {
  std::vector<std::string> out;
  const int n = int(b.size());
  for (int i = 0; i < n; ++i) {
    if (toads && b[i] == 'T') {
      if (i + 1 < n && b[i + 1] == '-') {
        std::string c = b;
        c[i] = '-';
        c[i + 1] = 'T';
        out.push_back(c);
      } else if (i + 2 < n && b[i + 1] == 'F' && b[i + 2] == '-') {
        std::string c = b;
        c[i] = '-';
        c[i + 2] = 'T';
        out.push_back(c);
      }
    } else if (!toads && b[i] == 'F') {
      if (i >= 1 && b[i - 1] == '-') {
        std::string c = b;
        c[i] = '-';
        c[i - 1] = 'F';
        out.push_back(c);
      } else if (i >= 2 && b[i - 1] == 'T' && b[i - 2] == '-') {
        std::string c = b;
        c[i] = '-';
        c[i - 2] = 'F';
        out.push_back(c);
      }
    }
  }
  return out;
}

using tbtest::all_boards;  // every board of n cells (tests/support.hpp)

inline std::string mirror(const std::string& b) {
  std::string m(b.rbegin(), b.rend());
  for (char& c : m) c = c == 'T' ? 'F' : (c == 'F' ? 'T' : c);
  return m;
}

// ---- the oracle: games as plain option lists, canonical forms by the book ---------------

class Oracle {
 public:
  int node(std::vector<int> l, std::vector<int> r) {
    nodes_.push_back({std::move(l), std::move(r)});
    return int(nodes_.size()) - 1;
  }
  const std::vector<int>& L(int g) const { return nodes_[g].l; }
  const std::vector<int>& R(int g) const { return nodes_[g].r; }

  /// G <= H iff no GL with H <= GL and no HR with HR <= G.
  bool le(int g, int h) {
    const uint64_t key = uint64_t(uint32_t(g)) << 32 | uint32_t(h);
    if (auto it = le_memo_.find(key); it != le_memo_.end()) return it->second;
    bool answer = true;
    for (int x : L(g))
      if (le(h, x)) {
        answer = false;
        break;
      }
    if (answer)
      for (int x : R(h))
        if (le(x, g)) {
          answer = false;
          break;
        }
    le_memo_[key] = answer;
    return answer;
  }
  bool eq(int g, int h) { return le(g, h) && le(h, g); }

  /// A node with these options, one per distinct (sorted) option lists.
  int structural(std::vector<int> l, std::vector<int> r) {
    std::sort(l.begin(), l.end());
    std::sort(r.begin(), r.end());
    auto key = std::make_pair(l, r);
    if (auto it = structural_.find(key); it != structural_.end()) return it->second;
    const int g = node(std::move(l), std::move(r));
    structural_.emplace(std::move(key), g);
    return g;
  }

  /// The canonical form of any node, as a structural node: options made canonical, then
  /// dominated options removed and reversible ones bypassed until neither is left. Equal
  /// values get the same node (canonical forms are unique).
  int canonical(int g) {
    if (auto it = canonical_.find(g); it != canonical_.end()) return it->second;
    std::vector<int> l, r;
    for (int x : L(g)) l.push_back(canonical(x));
    for (int x : R(g)) r.push_back(canonical(x));
    for (;;) {
      auto dedupe = [](std::vector<int>& v) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
      };
      dedupe(l);
      dedupe(r);
      std::vector<int> keep;
      for (int x : l) {
        bool dominated = false;
        for (int y : l) dominated = dominated || (y != x && le(x, y));
        if (!dominated) keep.push_back(x);
      }
      l = keep;
      keep.clear();
      for (int x : r) {
        bool dominated = false;
        for (int y : r) dominated = dominated || (y != x && le(y, x));
        if (!dominated) keep.push_back(x);
      }
      r = keep;
      const int now = node(l, r);
      bool changed = false;
      std::vector<int> nl, nr;
      for (int x : l) {
        int rev = -1;
        for (int y : R(x))
          if (rev < 0 && le(y, now)) rev = y;
        if (rev < 0) {
          nl.push_back(x);
        } else {
          nl.insert(nl.end(), L(rev).begin(), L(rev).end());
          changed = true;
        }
      }
      for (int x : r) {
        int rev = -1;
        for (int y : L(x))
          if (rev < 0 && le(now, y)) rev = y;
        if (rev < 0) {
          nr.push_back(x);
        } else {
          nr.insert(nr.end(), R(rev).begin(), R(rev).end());
          changed = true;
        }
      }
      l = nl;
      r = nr;
      if (!changed) break;
    }
    const int c = structural(l, r);
    canonical_[g] = c;
    canonical_[c] = c;
    return c;
  }

  /// The plain sum {GL + H, G + HL | GR + H, G + HR}, nothing simplified.
  int sum(int g, int h) {
    const uint64_t key = uint64_t(uint32_t(g)) << 32 | uint32_t(h);
    if (auto it = sum_memo_.find(key); it != sum_memo_.end()) return it->second;
    std::vector<int> l, r;
    for (int x : L(g)) l.push_back(sum(x, h));
    for (int x : L(h)) l.push_back(sum(g, x));
    for (int x : R(g)) r.push_back(sum(x, h));
    for (int x : R(h)) r.push_back(sum(g, x));
    const int s = node(l, r);
    sum_memo_[key] = s;
    return s;
  }
  int negative(int g) {
    if (auto it = neg_memo_.find(g); it != neg_memo_.end()) return it->second;
    std::vector<int> l, r;
    for (int x : R(g)) l.push_back(negative(x));
    for (int x : L(g)) r.push_back(negative(x));
    const int n = node(l, r);
    neg_memo_[g] = n;
    return n;
  }

  /// An engine form copied option by option (no simplification).
  int from_engine(FormTable& t, FormId g) {
    if (auto it = engine_.find(g); it != engine_.end()) return it->second;
    std::vector<int> l, r;
    for (FormId x : t.left(g)) l.push_back(from_engine(t, x));
    for (FormId x : t.right(g)) r.push_back(from_engine(t, x));
    const int o = structural(l, r);
    engine_[g] = o;
    return o;
  }

  /// A number as a plain game: n = {n-1|}, m/2^k = {(m-1)/2^k | (m+1)/2^k}.
  int number(Dyadic x) {
    if (x == Dyadic(0)) return structural({}, {});
    if (x.is_integer())
      return x > Dyadic(0) ? structural({number(x - Dyadic(1))}, {})
                           : structural({}, {number(x + Dyadic(1))});
    const Dyadic step = Dyadic::fraction(1, x.exponent());
    return structural({number(x - step)}, {number(x + step)});
  }

 private:
  struct Node {
    std::vector<int> l, r;
  };
  std::vector<Node> nodes_;
  std::unordered_map<uint64_t, bool> le_memo_;
  std::map<std::pair<std::vector<int>, std::vector<int>>, int> structural_;
  std::unordered_map<int, int> canonical_;
  std::unordered_map<uint64_t, int> sum_memo_;
  std::unordered_map<int, int> neg_memo_;
  std::unordered_map<FormId, int> engine_;
};

/// Board games in the oracle, nothing simplified: a board's options are its children.
struct OracleBoards {
  Oracle& o;
  std::unordered_map<std::string, int> memo;
  int game(const std::string& b) {
    if (auto it = memo.find(b); it != memo.end()) return it->second;
    std::vector<int> l, r;
    for (const auto& c : moves(b, true)) l.push_back(game(c));
    for (const auto& c : moves(b, false)) r.push_back(game(c));
    const int g = o.node(l, r);
    memo.emplace(b, g);
    return g;
  }
};

/// Who wins moving first, by minimax over the boards.
struct Minimax {
  std::map<std::pair<std::string, bool>, bool> memo;
  bool wins_first(const std::string& b, bool toads) {
    const auto key = std::make_pair(b, toads);
    if (auto it = memo.find(key); it != memo.end()) return it->second;
    bool w = false;
    for (const auto& c : moves(b, toads)) w = w || !wins_first(c, !toads);
    memo[key] = w;
    return w;
  }
};

}  // namespace cgt_oracle
