#include "solver/games/toads_frogs_cgt/module.hpp"

#include "solver/games/toads_frogs/toads_frogs.hpp"
#include "solver/games/toads_frogs_cgt/instance.hpp"
#include "solver/games/toads_frogs_cgt/solver.hpp"
#include "solver/games/toads_frogs_cgt/thermograph.hpp"

namespace toadbase::toads_frogs_cgt {

// ---- the module -------------------------------------------------------------------------

std::vector<ParamSpec> Module::parameters() {
  return {{"length", ParamSpec::Kind::Int,
           "every board of 1..n cells (n = 1.." + std::to_string(kMaxLength) + ", default 12): each board of " +
               "up to n cells is answered",
           "", 1, kMaxLength},
          {"text-cap", ParamSpec::Kind::Int,
           "a value printed longer than this many characters (0.." + std::to_string(kMaxTextCap) +
               ") keeps no text in the database; query prints it from its stored options",
           std::to_string(kTextCap), 0, static_cast<long long>(kMaxTextCap)}};
}

nlohmann::json Module::normalize(const nlohmann::json& given) {
  const int n = given.value("length", 12);
  if (n < 1 || n > kMaxLength)
    throw std::invalid_argument("--length " + std::to_string(n) + " is outside 1.." + std::to_string(kMaxLength));
  nlohmann::json out = {{"length", n}};
  // kept only when it is not the default: a database solved without it is the same
  const long long cap = given.value("text-cap", given.value("text_cap", static_cast<long long>(kTextCap)));
  if (cap < 0 || cap > static_cast<long long>(kMaxTextCap))
    throw std::invalid_argument("--text-cap " + std::to_string(cap) + " is outside 0.." + std::to_string(kMaxTextCap));
  if (cap != static_cast<long long>(kTextCap)) out["text_cap"] = cap;
  return out;
}

std::unique_ptr<Instance> Module::make_instance(const nlohmann::json& normalized) {
  return std::make_unique<CgtInstance>(normalized);
}

std::vector<ApiRoute> Module::api_routes() {
  ApiRoute thermograph{"thermograph", false, [](const ApiRequest& req) {
    if (!req.has("value"))
      return ApiAnswer::error(400, "give the value: /api/toads-frogs-cgt/thermograph?value=%7B2%7C-1%7D");
    return ApiAnswer{200, thermograph_json(req.param("value"))};
  }};
  return {thermograph};
}

PageView Module::page() {
  PageView v;
  v.title = "Toads and Frogs values";
  v.describe = [](const nlohmann::json& p) {
    return "Toads and Frogs values, boards of 1.." + std::to_string(p.value("length", 0)) +
           " cells";
  };
  v.about = [](const nlohmann::json&) {
    return std::string(
        "A board of toads (T), frogs (F) and empty cells (-): its combinatorial game value in "
        "CGSuite's notation and what follows from it, and its thermograph. Left moves the toads, "
        "Right the frogs; a click on a cell changes it, a move's board opens when you click it.");
  };
  v.kind = "values";
  v.position_field = "board";
  v.route = "thermograph";
  v.pieces = {{'T', "toad", "T\u203a", "toad"}, {'F', "frog", "\u2039F", "frog"}};
  v.words = {{"empty", "-"}};
  return v;
}

// ---- the instance -----------------------------------------------------------------------

CgtInstance::CgtInstance(nlohmann::json params)
    : params_(std::move(params)), boards_(params_.at("length").get<int>()) {}

Identity CgtInstance::identity() const { return {Module::kName, params_, Module::kRecord, 4, Module::kBlockBytes}; }

std::vector<TierInfo> CgtInstance::tiers() const {
  std::vector<TierInfo> out;
  const uint32_t n = boards_.class_count();
  for (uint32_t k = 0; k < n; ++k) out.push_back({boards_.cls(k).name(), boards_.cls(k).size});
  for (uint32_t k = 0; k < n; ++k) out.push_back({boards_.cls(k).name() + ".forms", kSizedBySolve});
  for (uint32_t k = 0; k < n; ++k) out.push_back({boards_.cls(k).name() + ".options", kSizedBySolve});
  for (uint32_t k = 0; k < n; ++k) out.push_back({boards_.cls(k).name() + ".text", kSizedBySolve});
  return out;
}

SolveStats CgtInstance::solve(TierStore& store, Progress* progress) const {
  return solve_database(boards_, store, progress, text_cap());
}

Board CgtInstance::parse(const std::string& text, const std::string& turn) const {
  if (!turn.empty() && turn != "1" && turn != "2")
    throw BadTurn("the player to move is 1 (Toads) or 2 (Frogs), not '" + printable_excerpt(turn) + "'");
  Board b;
  try {
    b = parse_board(text);
  } catch (const std::invalid_argument& e) {
    throw BadPosition(e.what());
  }
  if (b.length > boards_.max_length())
    throw BadPosition("board '" + printable_excerpt(text) + "' has " + std::to_string(b.length) +
                      " cells; this database holds every board of 1.." + std::to_string(boards_.max_length()) +
                      " cells");
  return b;
}

uint32_t CgtInstance::form_of(const TierSource& source, const FormReader& forms, const Board& b) const {
  const Located at = boards_.locate(b);
  uint32_t id;
  source.read_record(layout().board(at.cls), at.index, &id);
  return at.mirrored ? forms.negative(id) : id;
}

std::vector<uint32_t> CgtInstance::forms_of(const TierSource& source, const FormReader& forms,
                                            std::span<const Board> boards) const {
  std::vector<Located> at;
  std::vector<RecordRun> runs;
  for (const Board& b : boards) {
    at.push_back(boards_.locate(b));
    runs.push_back({layout().board(at.back().cls), at.back().index, 1});
  }
  source.prefetch(runs);
  std::vector<uint32_t> ids(boards.size()), rows;
  for (size_t i = 0; i < boards.size(); ++i) {
    source.read_record(layout().board(at[i].cls), at[i].index, &ids[i]);
    rows.push_back(ids[i]);
    // a form's negative is numbered right after it or right before (forms.hpp): its row is
    // asked for with the form's (the row before comes with every row)
    if (at[i].mirrored) rows.push_back(ids[i] + 1);
  }
  // the rows of every board's form, not only the mirrored ones' that name their negatives:
  // what a query reads next
  forms.prefetch_rows(rows);
  for (size_t i = 0; i < boards.size(); ++i)
    if (at[i].mirrored) ids[i] = forms.negative(ids[i]);
  // and the rows of the negatives numbered before their forms (and the rows before those)
  forms.prefetch_rows(ids);
  return ids;
}

void CgtInstance::put_form(nlohmann::ordered_json& j, const StoredForm& f) {
  j["value"] = f.text;
  j["outcomeClass"] = std::string(1, cgt::outcome_name(f.outcome));
  j["leftStop"] = f.left_stop.to_string();
  j["rightStop"] = f.right_stop.to_string();
  j["mean"] = f.mean.to_string();
  j["temperature"] = f.temperature.to_string();
  j["kind"] = std::string(cgt::kind_name(f.kind));
  j["birthday"] = f.birthday;
  if (f.atomic_weight) j["atomicWeight"] = *f.atomic_weight;
}

namespace {

/// Calls each(player, move, child) for every move of the board, Left's (the toads') first.
template <class Each>
void each_move(const Board& b, Each&& each) {
  toads_frogs::Position p;
  p.toads = b.toads;
  p.frogs = b.frogs;
  p.length = static_cast<uint8_t>(b.length);
  for (const auto player : {toads_frogs::Player::Toads, toads_frogs::Player::Frogs}) {
    p.turn = player;
    for (const toads_frogs::Move mv : toads_frogs::legal_moves(p)) {
      const toads_frogs::Position q = toads_frogs::apply(p, mv);
      each(player, mv, Board{q.toads, q.frogs, b.length});
    }
  }
}

}  // namespace

nlohmann::ordered_json CgtInstance::query(const TierSource& source, const std::string& text,
                                          const std::string& turn) const {
  const Board b = parse(text, turn);
  const FormReader forms(source, layout());
  // the board, then its children: their records lie scattered, so each step (boards' form
  // ids, negatives, rows, texts) is asked of the store for all of them at once, and a cold
  // store fetches the step's blocks together rather than one after another
  struct Child {
    toads_frogs::Player player;
    toads_frogs::Move move;
  };
  std::vector<Board> boards{b};
  std::vector<Child> moves;
  each_move(b, [&](toads_frogs::Player player, toads_frogs::Move mv, const Board& child) {
    boards.push_back(child);
    moves.push_back({player, mv});
  });
  const std::vector<uint32_t> ids = forms_of(source, forms, boards);
  forms.prefetch_texts(ids);
  nlohmann::ordered_json j;
  j["board"] = board_string(b);
  put_form(j, forms.read(ids[0]));
  j["leftMoves"] = nlohmann::ordered_json::array();
  j["rightMoves"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < moves.size(); ++i)
    j[moves[i].player == toads_frogs::Player::Toads ? "leftMoves" : "rightMoves"].push_back(
        {{"move", toads_frogs::move_name(moves[i].move)},
         {"board", board_string(boards[i + 1])},
         {"value", forms.text(ids[i + 1])}});
  return j;
}

uint64_t CgtInstance::query_bytes(const TierSource& source, const std::string& text,
                                  const std::string& turn) const {
  const Board b = parse(text, turn);
  const FormReader forms(source, layout());
  // the steps query() takes (serve asks this first, so it is the one that reads cold)
  std::vector<Board> boards{b};
  each_move(b, [&](toads_frogs::Player, toads_frogs::Move, const Board& child) { boards.push_back(child); });
  const std::vector<uint32_t> ids = forms_of(source, forms, boards);
  uint64_t bytes = 0;
  for (const uint32_t id : ids) bytes += forms.printed_length(id);
  return bytes;
}

std::string CgtInstance::start_position() const {
  // the conventional start of the longest boards: round(n/3) toads and frogs at the ends
  const int n = boards_.max_length(), k = (n + 1) / 3;
  return std::string(static_cast<size_t>(k), 'T') + std::string(static_cast<size_t>(n - 2 * k), '-') +
         std::string(static_cast<size_t>(k), 'F');
}

std::string CgtInstance::position_at(TierId t, uint64_t index) const {
  if (t >= boards_.class_count())
    throw std::invalid_argument("tier " + std::to_string(t) + " is part of the form table, not of the boards");
  return board_string(boards_.unrank(t, index));
}

}  // namespace toadbase::toads_frogs_cgt
