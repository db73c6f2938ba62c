// Position strings: the canonical format, lenient input, and errors that say what is wrong.
#include <catch2/catch.hpp>

#include "solver/games/toads_frogs/module.hpp"
#include "support.hpp"

using namespace tbtest;
using Catch::Matchers::Contains;
using tf::Player;

namespace {

/// The message of the PositionError that parse throws (fails the test when none is thrown).
std::string parse_error(const std::string& text, std::optional<Player> turn = std::nullopt) {
  try {
    const tf::Position p = tf::parse(text, turn);
    FAIL("parse('" << text << "') accepted it as " << to_string(p));
  } catch (const tf::PositionError& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST_CASE("format writes <turn>_<board> and parse reads it back, every board up to 7 cells",
          "[positions]") {
  for (int n = 1; n <= 7; ++n) {
    for (const std::string& board : all_boards(n)) {
      for (const char* turn : {"1_", "2_"}) {
        const std::string pos = turn + board;
        const tf::Position p = to_position(pos);
        if (tf::format(p) != pos) FAIL_CHECK("format gives " << tf::format(p) << " for " << pos);
        if (!(tf::parse(pos) == p)) FAIL_CHECK("parse('" << pos << "') differs");
      }
    }
  }
  CHECK(tf::format(to_position("1_TT--FF")) == "1_TT--FF");
  CHECK(tf::format(to_position("2_-")) == "2_-");
}

TEST_CASE("parse is lenient: _ and . for empty, lower case, bare boards with a default turn",
          "[positions]") {
  CHECK(tf::format(tf::parse("1_tt..ff")) == "1_TT--FF");
  CHECK(tf::format(tf::parse("2_T__F")) == "2_T--F");
  CHECK(tf::format(tf::parse("2_t._F")) == "2_T--F");
  CHECK(tf::format(tf::parse("TT-FF", Player::Toads)) == "1_TT-FF");
  CHECK(tf::format(tf::parse("TT-FF", Player::Frogs)) == "2_TT-FF");
  CHECK(tf::format(tf::parse("-ttff", Player::Toads)) == "1_-TTFF");
  // a bare board may itself start with an empty cell written '_'
  CHECK(tf::format(tf::parse("_TTFF", Player::Frogs)) == "2_-TTFF");
  // an explicit turn wins over the default
  CHECK(tf::format(tf::parse("2_TT-FF", Player::Toads)) == "2_TT-FF");
  // surrounding blanks are ignored
  CHECK(tf::format(tf::parse("  1_T-F\n")) == "1_T-F");
  // the longest board supported
  const std::string longest(tf::kMaxLength, '-');
  CHECK(tf::parse("1_" + longest).length == tf::kMaxLength);
}

TEST_CASE("parse errors name the problem", "[positions]") {
  SECTION("a bad turn digit") {
    const std::string e = parse_error("3_TT");
    CHECK_THAT(e, Contains("3_TT"));
    CHECK_THAT(e, Contains("player to move is '3'"));
    CHECK_THAT(e, Contains("1 (Toads) or 2 (Frogs)"));
  }
  SECTION("a bad cell") {
    const std::string e = parse_error("1_TX-F");
    CHECK_THAT(e, Contains("cell 1"));
    CHECK_THAT(e, Contains("'X'"));
    CHECK_THAT(parse_error("1_TT F"), Contains("cell 2"));
  }
  SECTION("an empty board") {
    CHECK_THAT(parse_error("1_"), Contains("empty"));
    CHECK_THAT(parse_error("", Player::Toads), Contains("empty"));
  }
  SECTION("no player to move") {
    const std::string e = parse_error("TT-F");
    CHECK_THAT(e, Contains("no player to move"));
    CHECK_THAT(parse_error(""), Contains("no player to move"));
  }
  SECTION("a board that is too long") {
    const std::string e = parse_error("1_" + std::string(tf::kMaxLength + 1, 'T'));
    CHECK_THAT(e, Contains("27 cells"));
    CHECK_THAT(e, Contains("the 26 supported"));
    CHECK_THAT(parse_error(std::string(40, '-'), Player::Toads), Contains("40 cells"));
  }
  SECTION("the tools' --turn option") {
    using toadbase::toads_frogs::Module;
    CHECK(tf::format(Module::parse("T-F", "2")) == "2_T-F");
    CHECK(tf::format(Module::parse("1_T-F", "")) == "1_T-F");
    // a turn the game does not take is the caller's mistake (BadTurn: the command exits 2)
    try {
      (void)Module::parse("T-F", "3");
      FAIL("--turn 3 accepted");
    } catch (const toadbase::BadTurn& e) {
      CHECK_THAT(std::string(e.what()), Contains("'3'"));
    }
    CHECK_THROWS_AS(Module::parse("T-F", ""), tf::PositionError);
    // a position that names its player must agree with the turn given
    CHECK(tf::format(Module::parse("2_T-F", "2")) == "2_T-F");
    CHECK_THROWS_WITH(Module::parse("1_T-F", "2"), Contains("1 (Toads) to move, and the turn given is 2"));
  }
}

TEST_CASE("a space says why it does not hold a position", "[positions]") {
  const tf::Space all(tf::SpaceParams{5, std::nullopt, std::nullopt});
  CHECK(all.contains(to_position("1_TT-FF")));
  CHECK(all.why_not_contained(to_position("1_TT-FF")).empty());
  CHECK_FALSE(all.contains(to_position("1_TT-F")));
  CHECK_THAT(all.why_not_contained(to_position("1_TT-F")), Contains("4 cells"));

  const tf::Space two_two(tf::SpaceParams{5, 2, 2});
  CHECK(two_two.contains(to_position("2_FT-TF")));
  CHECK_FALSE(two_two.contains(to_position("1_TTTFF")));
  CHECK_THAT(two_two.why_not_contained(to_position("1_TTTFF")), Contains("3 toads and 2 frogs"));
}

TEST_CASE("a space refuses impossible parameters", "[positions]") {
  using P = tf::SpaceParams;
  CHECK_THROWS_AS(tf::Space(P{0, std::nullopt, std::nullopt}), std::invalid_argument);
  CHECK_THROWS_AS(tf::Space(P{tf::kMaxLength + 1, std::nullopt, std::nullopt}),
                  std::invalid_argument);
  CHECK_THROWS_WITH(tf::Space(P{8, 3, std::nullopt}), Contains("both"));
  CHECK_THROWS_WITH(tf::Space(P{8, 5, 4}), Contains("do not fit"));
  CHECK_THROWS_AS(tf::Space(P{8, -1, 2}), std::invalid_argument);
  CHECK_NOTHROW(tf::Space(P{8, 4, 4}));
  CHECK_NOTHROW(tf::Space(P{8, 0, 0}));
}
