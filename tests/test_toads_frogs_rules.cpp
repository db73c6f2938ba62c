// The rules: legal_moves / apply / mirror against the brute-force oracle of support.cpp.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

#include "solver/games/toads_frogs/module.hpp"
#include "support.hpp"

using namespace tbtest;

namespace {

std::vector<std::string> project_children(const tf::Position& p) {
  std::vector<std::string> out;
  for (tf::Move m : tf::legal_moves(p)) out.push_back(to_string(tf::apply(p, m)));
  return out;
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

}  // namespace

TEST_CASE("Space::children gives apply's children of legal_moves, in their order, into a vector used again",
          "[rules][oracle]") {
  // verify reads every position's children through it: its moves made by bit tricks of its own
  uint64_t checked = 0, mismatches = 0;
  std::vector<tf::Position> out;
  for (int n = 1; n <= 9; ++n) {
    const tf::Space s(tf::SpaceParams{n, std::nullopt, std::nullopt});
    for (const std::string& board : all_boards(n)) {
      for (const char* turn : {"1_", "2_"}) {
        const tf::Position p = to_position(turn + board);
        std::vector<tf::Position> want;
        for (tf::Move m : tf::legal_moves(p)) want.push_back(tf::apply(p, m));
        s.children(p, out);  // after the previous board's, longer or shorter
        std::vector<std::string> names;
        for (const tf::Position& c : out) names.push_back(to_string(c));
        ++checked;
        if (out != want || s.children(p) != want || sorted(names) != sorted(oracle_children(turn + board))) {
          ++mismatches;
          INFO(turn + board);
          CHECK(out == want);
        }
      }
    }
  }
  CHECK(checked == 2 * (3 + 9 + 27 + 81 + 243 + 729 + 2187 + 6561 + 19683));
  CHECK(mismatches == 0);
}

TEST_CASE("legal_moves and apply give the oracle's children on every board of 1..9 cells",
          "[rules][oracle]") {
  uint64_t checked = 0, mismatches = 0;
  for (int n = 1; n <= 9; ++n) {
    for (const std::string& board : all_boards(n)) {
      for (const char* turn : {"1_", "2_"}) {
        const std::string pos = turn + board;
        const tf::Position p = to_position(pos);
        const auto moves = tf::legal_moves(p);
        const auto want = sorted(oracle_children(pos));
        const auto got = sorted(project_children(p));
        ++checked;
        bool ok = got == want;
        // documented order: toads left to right, frogs right to left; no move twice
        for (size_t k = 1; k < moves.size(); ++k) {
          if (p.turn == tf::Player::Toads ? moves[k - 1].from >= moves[k].from
                                          : moves[k - 1].from <= moves[k].from)
            ok = false;
        }
        for (tf::Move m : moves) {
          const int step = m.to - m.from;
          if (p.turn == tf::Player::Toads ? (step != 1 && step != 2) : (step != -1 && step != -2))
            ok = false;
          const tf::Position c = tf::apply(p, m);
          if (c.length != p.length || c.turn == p.turn || (c.toads & c.frogs)) ok = false;
        }
        if (!ok && ++mismatches <= 10) {
          std::string g, w;
          for (const auto& s : got) g += s + " ";
          for (const auto& s : want) w += s + " ";
          FAIL_CHECK(pos << ": project gives { " << g << "} in that order, oracle { " << w << "}");
        }
      }
    }
  }
  CHECK(checked == 2 * (3 + 9 + 27 + 81 + 243 + 729 + 2187 + 6561 + 19683));
  CHECK(mismatches == 0);
}

TEST_CASE("Erickson's sample game is a sequence of legal moves", "[rules]") {
  // TT-FF -> T-TFF -> TFT-F -> TF-TF -> TFFT- -> TFF-T, Toads first (spec)
  const std::vector<std::string> game = {"1_TT-FF", "2_T-TFF", "1_TFT-F",
                                         "2_TF-TF", "1_TFFT-", "2_TFF-T"};
  for (size_t k = 0; k + 1 < game.size(); ++k) {
    INFO(game[k] << " -> " << game[k + 1]);
    const auto kids = project_children(to_position(game[k]));
    CHECK(std::find(kids.begin(), kids.end(), game[k + 1]) != kids.end());
  }
  CHECK(tf::legal_moves(to_position(game.back())).empty());  // Frogs are stuck: Toads won
}

TEST_CASE("jumps: over exactly one opposing piece into an empty cell", "[rules]") {
  CHECK(sorted(project_children(to_position("1_TF-"))) == std::vector<std::string>{"2_-FT"});
  CHECK(project_children(to_position("1_TT-")) == std::vector<std::string>{"2_T-T"});
  CHECK(project_children(to_position("1_TFF-")).empty());  // two pieces in the way
  CHECK(project_children(to_position("1_T-F")) == std::vector<std::string>{"2_-TF"});
  CHECK(project_children(to_position("1_TF")).empty());  // off the strip
  CHECK(project_children(to_position("2_-TF")) == std::vector<std::string>{"1_FT-"});
  CHECK(project_children(to_position("2_TTF")).empty());
  CHECK(project_children(to_position("2_FF")).empty());  // no jumping over your own piece
  CHECK(project_children(to_position("1_-")).empty());
}

TEST_CASE("mirror reverses the strip and swaps toads, frogs and the player", "[rules]") {
  for (int n = 1; n <= 7; ++n) {
    for (const std::string& board : all_boards(n)) {
      for (const char* turn : {"1_", "2_"}) {
        const std::string pos = turn + board;
        const tf::Position p = to_position(pos);
        const std::string want = std::string(turn[0] == '1' ? "2_" : "1_") +
                                 oracle_mirror_board(board);
        const tf::Position m = tf::mirror(p);
        if (to_string(m) != want) FAIL_CHECK(pos << ": mirror " << to_string(m) << ", want " << want);
        if (!(tf::mirror(m) == p)) FAIL_CHECK(pos << ": mirror twice is not the identity");
        // the rules commute with the mirror
        std::vector<std::string> mirrored;
        for (const auto& c : project_children(p)) mirrored.push_back(to_string(tf::mirror(to_position(c))));
        if (sorted(mirrored) != sorted(project_children(m)))
          FAIL_CHECK(pos << ": children of the mirror are not the mirrors of the children");
      }
    }
  }
  SUCCEED();
}

TEST_CASE("move names: cells counted from 0, GamesCrafters autogui strings", "[rules]") {
  CHECK(tf::move_name({1, 2}) == "1-2");
  CHECK(tf::autogui_move({1, 2}) == "M_1_2_x");
  CHECK(tf::move_name({14, 12}) == "14-12");
  CHECK(tf::autogui_move({14, 12}) == "M_14_12_x");

  const auto moves = toadbase::toads_frogs::Module::moves(to_position("2_TFT-F"));
  REQUIRE(moves.size() == 1);
  CHECK(moves[0].name == "4-3");
  CHECK(moves[0].autogui == "M_4_3_x");
  CHECK(to_string(moves[0].child) == "1_TFTF-");

  // Game::moves names every legal move, with the child it leads to
  for (const std::string& board : all_boards(6)) {
    for (const char* turn : {"1_", "2_"}) {
      const tf::Position p = to_position(turn + board);
      const auto named = toadbase::toads_frogs::Module::moves(p);
      const auto legal = tf::legal_moves(p);
      REQUIRE(named.size() == legal.size());
      for (size_t k = 0; k < legal.size(); ++k) {
        CHECK(named[k].name == tf::move_name(legal[k]));
        CHECK(named[k].autogui == tf::autogui_move(legal[k]));
        CHECK(named[k].child == tf::apply(p, legal[k]));
      }
    }
  }
}
