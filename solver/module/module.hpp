// The module contract: what a game gives toadbase, written down once.
//
// A game is one folder under solver/games/<game>/ whose module.hpp declares one struct M
// satisfying the concept `Module` below, and one line in tools/registry.cpp registers it.
// Nothing else in the engine, the database or the command changes for a new game.
//
// Every requirement is marked REQUIRED or OPTIONAL; each says what it means for the game.
//
// EVERY GAME
//   REQUIRED  static constexpr const char* kName     the game's word on the command line and in
//                                                    a database's manifest ("toads-frogs")
//   REQUIRED  static constexpr const char* kTitle    one line for --help ("Toads and Frogs ...")
//   OPTIONAL  static std::vector<GameCommand> add_commands(CLI::App& root, const Host& host)
//                      the game's own subcommands ("toadbase frog-puzzle solve ..."); a
//                      subcommand that reads a database opens it through `host`, reads and
//                      writes the user's files through it ("-" is standard input/output),
//                      gives one to three examples through it, returns an ExitCode and
//                      throws UsageError for a command-line mistake (exit 2)
//
// A GAME WITH A POSITION DATABASE (`toadbase solve <game>`) also gives its parameters
//   REQUIRED  static std::vector<ParamSpec> parameters()       its `solve` options (with the
//                                                               default --help shows)
//   REQUIRED  static nlohmann::json normalize(const nlohmann::json& given)
//                      the options given -> the space's identity (defaults filled in);
//                      throws std::invalid_argument naming the bad option
// and its engine, in one of two ways:
//
//   (a) A TIER GAME: the tier engine (solver/core/engine.hpp) solves, verifies and probes it
//   REQUIRED  using Space        the tiered space: satisfies TierGame (solver/core/game.hpp)
//   REQUIRED  using Position     a position of the space (Space::Position)
//   REQUIRED  using RecordType   the record: ParityRecord (two players, win/lose and
//                                remoteness) or PuzzleRecord (one player, moves to the goal)
//   OPTIONAL  using WideRecordType   a wider record for spaces whose games may outlast
//                                RecordType (WideParityRecord: remoteness up to 65535), with
//   OPTIONAL  static uint64_t remoteness_bound(const nlohmann::json& normalized)   a bound
//                      on the remoteness of the space's positions: RecordType when it fits
//                      (kMaxStored), else WideRecordType. The record's name and width go
//                      into the manifest, and every command reads either.
//   REQUIRED  static Space make_space(const nlohmann::json& normalized)
//   REQUIRED  static Position parse(const std::string& text, const std::string& turn)
//                      a position string (`turn` "1"/"2"/"" supplies the player for a bare
//                      board); throws std::invalid_argument saying what is wrong, BadTurn
//                      for a `turn` the game does not take (checked before the text)
//   REQUIRED  static std::string format(const Position& p)     the canonical string
//   REQUIRED  static std::vector<NamedMove<Position>> moves(const Position& p)
//                      every legal move with its name ("1-2"), its GamesCrafters autogui
//                      key ("M_1_2_x") and the position it leads to
//   OPTIONAL  static std::string autogui_position(const Position& p)
//                      the position as GamesmanUni's board reads it (default: format(p))
//   OPTIONAL  static Position start(const Space& space)          the space's start position
//   OPTIONAL  static int turn(const Position& p)   the player to move, 1 or 2 (a two-player
//                      game: `play` names the player from it; a puzzle has no turn)
//   OPTIONAL  class Census   `analyze`'s own findings, fed every tier once as analyze
//                      reads them (level by level, the tiers of a level side by side):
//                        explicit Census(const Space&)
//                        template <class At> void tier(TierId t, At&& at)   thread-safe;
//                            at(tier, i): the Outcome of position i of t or of a tier
//                            read to make t (a derived tier's children, a tail's source)
//                        nlohmann::json report() const
//
//   (b) ITS OWN ENGINE (a chance game, a policy table): an Instance of its own making
//   REQUIRED  static std::unique_ptr<Instance> make_instance(const nlohmann::json& normalized)
//
// A GAME WITHOUT A DATABASE brings its subcommands only (kName, kTitle, add_commands).
//
// A GAME WHOSE QUERY ANSWERS COMBINATORIAL GAME VALUES (CGSuite's notation) says so:
//   OPTIONAL  static constexpr bool kCgtValues = true    Python's Database.cgt() answers its
//                      databases (and refuses every other game's)
//
// ANY GAME may say how the page (`toadbase serve`'s /, tools/web/) shows it; /api/ lists it:
//   OPTIONAL  static PageView page()
//                      a title, a line describing a database from its parameters, the page's
//                      view of its databases ("strip": the pieces, the players; "plain" for
//                      any game: the position in, the query's JSON shown, moves clickable)
//                      and the views it offers without a database; without it the plain view
//                      under kTitle. tools/web/ names no game: all it knows of one is this.
//
// A WIN/LOSE TIER GAME may be played on GamesmanUni from `toadbase serve`:
//   OPTIONAL  static UwapiGame uwapi()
//                      its name, players, the two pieces' letters, its instructions and how
//                      a database's variant is named; without it its databases are served
//                      on /api/ and the page, not on /uwapi/
//
// ANY GAME may also answer over HTTP (`toadbase serve`) beyond its databases' queries:
//   OPTIONAL  static std::vector<ApiRoute> api_routes()
//                      the game's own work at /api/<kName>/<route> (a forest played, a roll
//                      file solved), answered as its subcommand would; each route reads its
//                      parameters and served databases through the ApiRequest, keeps within
//                      the request's limits, and throws std::invalid_argument for a bad
//                      request (400 with the message)
#pragma once

#include <concepts>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "solver/core/distribute.hpp"
#include "solver/core/game.hpp"
#include "solver/core/printable.hpp"
#include "solver/core/progress.hpp"
#include "solver/core/record.hpp"
#include "solver/core/results.hpp"
#include "solver/core/schedule.hpp"
#include "solver/core/store.hpp"
#include "solver/core/transport.hpp"
#include "solver/module/params.hpp"

namespace CLI {
class App;  // CLI11, included where a command line is built
}

namespace toadbase {

/// A bad position string; the message says what is wrong.
struct BadPosition : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// A player to move given for bare boards (the command's --turn, Python's turn=, a route's
/// turn=) that the game does not take: the caller's mistake, not a position's (the command
/// exits 2). The message names no option: each way in names its own.
struct BadTurn : BadPosition {
  using BadPosition::BadPosition;
};

/// A command-line mistake (a value out of range, options that contradict, an unknown name):
/// the command exits 2. Any other error a command throws exits 1.
struct UsageError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// What a database cannot answer until something is made for it (`cgt find` before
/// `cgt index`): exit 1, and 404 from the server, the message saying what to make.
struct Unavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The command's exit codes (the README's table), kept by every command, the games' own too.
enum ExitCode : int {
  kExitOk = 0,          // success
  kExitNo = 1,          // a negative answer or an error in the data (disagreement, bad position)
  kExitUsage = 2,       // a command-line mistake
  kExitUnsolvable = 3,  // the question has no answer: unsolvable, nobody survives
};

/// A move with its names and the position it leads to.
template <class Position>
struct NamedMove {
  std::string name;     // "1-2": from cell 1 to cell 2
  std::string autogui;  // GamesCrafters' autogui move key, "M_1_2_x"
  Position child;
};

/// A win/lose position as a lookup sees it: its value, and every move's.
struct MoveProbe {
  std::string name, autogui, position, autogui_position;
  Outcome outcome;  // the child's value, for the player to move there
};
struct PositionProbe {
  int players = 2;  // 2: a two-player game; 1: a puzzle (win = the goal can be reached)
  int turn = 0;     // the player to move, 1 or 2 (0: the game does not say; a puzzle)
  std::string position, autogui_position;
  Outcome outcome;
  std::vector<MoveProbe> moves;  // in the game's order (the JSON writer sorts them)
};

/// The values of a game whose values are text of its own (a capability an Instance has or
/// lacks: value_claims()): `export --format tsv` writes position<TAB>value lines, and
/// `validate` checks such lines, comparing values as the game compares them (the value
/// database: as games, so 1/2 and {0|1} agree).
class ValueClaims {
 public:
  virtual ~ValueClaims() = default;
  /// The lines export writes (its size guard), and each of them without its newline, in
  /// the database's order.
  virtual uint64_t claim_lines(const TierSource& source) const = 0;
  virtual void each_claim(const TierSource& source, const std::function<void(const std::string&)>& line) const = 0;
  /// One claim's verdict: the position as the database names it and its value there.
  struct Verdict {
    bool agrees = false;
    std::string position, value;
  };
  /// Checks claims one after the other (it keeps what it made for the next ones). Throws
  /// BadPosition for a position the database does not hold, std::invalid_argument for a
  /// claimed value that does not parse (the line is unparseable).
  using Checker = std::function<Verdict(const std::string& position, const std::string& value)>;
  virtual Checker claim_checker(const TierSource& source) const = 0;
};

/// The values of a win/lose game (a capability an Instance has or lacks: win_lose_values()).
class WinLoseValues {
 public:
  /// A position's value and every move's; throws BadPosition.
  virtual PositionProbe probe(const TierSource& source, const std::string& text,
                              const std::string& turn) const = 0;
  /// The canonical string and value of a position, without its moves.
  virtual std::pair<std::string, Outcome> value(const TierSource& source, const std::string& text,
                                                const std::string& turn) const = 0;
  /// The value of a position alone: what batch lookups call, many threads at once, so a game
  /// answers it without building strings; throws BadPosition.
  virtual Outcome lookup(const TierSource& source, const std::string& text,
                         const std::string& turn) const = 0;
  /// Throws BadTurn when the game does not take `turn` for bare boards ("" it always takes):
  /// what a caller checks once, before any position (validate's --turn, with no line read).
  virtual void check_turn(const std::string& turn) const = 0;
  /// GamesCrafters' 16-bit records of a tier's whole records (GamesmanOne's value in the top
  /// four bits: lose 1, tie 3, win 4; remoteness below); throws std::invalid_argument for a
  /// record that does not fit.
  virtual std::vector<uint16_t> gamescrafters16(const std::vector<uint8_t>& records) const = 0;

 protected:
  ~WinLoseValues() = default;
};

/// One solved space of a game (the game and its normalized parameters): what every way in
/// (the command, the server, the Python module) calls.
class Instance {
 public:
  virtual ~Instance() = default;

  /// The game, its parameters and its record type, as the database's manifest holds them.
  virtual Identity identity() const = 0;
  /// The tiers, in id order.
  virtual std::vector<TierInfo> tiers() const = 0;
  /// Solves every tier the store does not hold yet (call inside with_threads()).
  virtual SolveStats solve(TierStore& store, Progress* progress) const = 0;
  /// The same within the plan's memory budget (model.memory_budget, schedule.hpp); a game
  /// that solves with an engine of its own (no plan) solves as above.
  virtual SolveStats solve(TierStore& store, Progress* progress, const CostModel& model) const {
    (void)model;
    return solve(store, progress);
  }
  /// Solves as one rank of a distributed solve: every rank calls it, rank 0 with the store,
  /// the others with none but a packer of the store's kind (the tiers they report to rank 0
  /// go packed). Call inside with_threads().
  virtual SolveStats solve(TierStore* store, const TierPacker& packer, Progress* progress,
                           Transport& transport, const CostModel& model) const {
    (void)packer, (void)model;
    if (transport.ranks() == 1 && store) return solve(*store, progress);
    throw std::invalid_argument(identity().game +
                                " solves in one process only: run it without mpirun or srun");
  }
  /// What the plan on `ranks` ranks holds at once on its busiest rank under
  /// model.memory_budget (schedule.hpp), without more of the plan than it needs.
  virtual BudgetFit budget_fit(int ranks, const CostModel& model) const { return budget_fit_of(plan(ranks, model)); }
  /// The plan of a distributed solve of the whole space on `ranks` ranks (distribute.hpp).
  virtual Distribution plan(int ranks, const CostModel& model) const {
    (void)ranks, (void)model;
    throw std::invalid_argument(identity().game +
                                " solves in one process only: it has no distributed plan");
  }
  /// Recomputes every record independently of the solve and compares it with the store.
  virtual VerifyReport verify(const TierSource& source, Progress* progress) const = 0;
  /// Recomputes `per_tier` random positions of every tier (all of a smaller one) from their
  /// children's records as a lookup reads them, and looks each up as query does (`verify
  /// --sample`: a database too large to verify whole); the same seed draws the same
  /// positions. Throws UsageError for a game that verifies whole databases only.
  virtual VerifyReport verify_sample(const TierSource& source, uint64_t per_tier, uint64_t seed,
                                     Progress* progress) const {
    (void)source, (void)per_tier, (void)seed, (void)progress;
    throw UsageError(identity().game + " databases are verified whole: run verify without --sample");
  }
  /// Counts and the game's own findings (`toadbase analyze --json`).
  virtual nlohmann::json analyze(const TierSource& source) const = 0;

  /// What only a win/lose game can do (probe values and remoteness, batch lookups, export
  /// for GamesCrafters, play), or nullptr: such a game's query JSON is the UWAPI shape that
  /// tools/ writes from the probe. Other games answer query() with their own JSON.
  virtual const WinLoseValues* win_lose_values() const { return nullptr; }
  /// A game with values of its own that export and validate read as text, or nullptr.
  virtual const ValueClaims* value_claims() const { return nullptr; }
  /// The position's JSON (games with their own values); throws BadPosition.
  virtual nlohmann::ordered_json query(const TierSource&, const std::string& text,
                                       const std::string& turn) const {
    (void)turn;
    throw BadPosition("position '" + printable(text) + "': " + identity().game +
                      " answers through probe()");
  }

  /// About how many bytes of text query() answers for the position, read from the stored
  /// records without building the answer; 0 when its answers are always short (the default).
  /// The server answers a position past its bound on its heavy pool, beside the batches, so
  /// a flood of long answers never holds the workers of the short ones. Throws BadPosition
  /// as query() does.
  virtual uint64_t query_bytes(const TierSource&, const std::string& text, const std::string& turn) const {
    (void)text, (void)turn;
    return 0;
  }

  /// Positions by value (a game with values of its own: `cgt find`), from named parameters
  /// as HTTP and Python give them; the answer's JSON. `path` is the database's folder (where
  /// an index made for it lies). Throws UsageError on a bad parameter, Unavailable when the
  /// database has no index yet; this default: UsageError (the game has no find).
  virtual nlohmann::ordered_json find(const TierSource&, const std::string& path,
                                      const std::map<std::string, std::string>& params) const {
    (void)path, (void)params;
    throw UsageError(identity().game + " databases answer no find (the value databases do: toads-frogs-cgt)");
  }

  /// The space's start position ("" when the game names none).
  virtual std::string start_position() const { return ""; }
  /// The canonical string of the i-th position of a tier; throws std::invalid_argument for a
  /// game whose positions are not addressed by index.
  virtual std::string position_at(TierId t, uint64_t index) const {
    (void)t, (void)index;
    throw std::invalid_argument(identity().game + " positions are not addressed by tier and index");
  }
  /// Every tier's whole records in id order, `record_bytes` bytes a record (record-major;
  /// derived tiers and tails rebuilt), handed to `each` one tier at a time.
  virtual void each_tier(
      const TierSource& source,
      const std::function<void(TierId, const std::vector<uint8_t>&)>& each) const {
    for (TierId t = 0; t < tiers().size(); ++t) {
      std::vector<uint8_t> raw(source.tier_kept(t) * source.record_bytes());
      if (!raw.empty()) source.load_tier(t, raw.data());
      each(t, raw);
    }
  }
  /// A reader of whole tiers one at a time, in any order (the same records as each_tier):
  /// it keeps the tiers it rebuilt lately for the next call. Thread-safe; `source` (and this
  /// instance) must outlive it.
  virtual std::function<std::vector<uint8_t>(TierId)> tier_reader(const TierSource& source) const {
    return [&source](TierId t) {
      std::vector<uint8_t> raw(source.tier_kept(t) * source.record_bytes());
      if (!raw.empty()) source.load_tier(t, raw.data());
      return raw;
    };
  }
};

/// A game's own subcommand: the parsed CLI11 app and what to run when it was given (returns
/// the exit code; throws std::exception on errors).
using GameCommand = std::pair<CLI::App*, std::function<int()>>;

/// A database opened for a game's own subcommand.
struct OpenedDatabase {
  std::unique_ptr<TierSource> source;
  std::unique_ptr<Instance> instance;
  nlohmann::json manifest;
};

/// What a game's subcommands get from the command line that hosts them.
class Host {
 public:
  virtual ~Host() = default;
  /// Opens a complete database of `game` read-only; throws std::runtime_error naming the
  /// path when it is missing, damaged, incomplete, or of another game or record type.
  virtual OpenedDatabase open(const std::string& path, const std::string& game) const = 0;
  /// The whole text of a file the user named; "-" is standard input (once per run). Throws
  /// std::runtime_error naming the file when it cannot be read.
  virtual std::string read_input(const std::string& path) const = 0;
  /// Writes a file whole or not at all (a temporary file renamed over it); "-" is standard
  /// output. Throws std::runtime_error naming the file when it cannot be written.
  virtual void write_output(const std::string& path, const std::string& text) const = 0;
  /// Sets a subcommand's help footer: one to three example command lines.
  virtual void examples(CLI::App* app, const std::vector<std::string>& lines) const = 0;
  /// A subcommand's positionals reach `into` whole and in the order given (the host reads
  /// them, CLI11 never sees them; declare a positional option too, for the help page). After
  /// `--` every argument is one; before it, any argument that is not an option of the command
  /// (or of one above it) is one too, even when it starts with '-' (a strip "-TF", a value "-1").
  virtual void positionals(CLI::App* app, std::vector<std::string>* into) const = 0;
};

/// A request to a game's own HTTP route, as the server hands it over (no HTTP library here).
class ApiRequest {
 public:
  virtual ~ApiRequest() = default;
  /// Whether the query string gives `name`, and its value ("" when absent).
  virtual bool has(const std::string& name) const = 0;
  virtual std::string param(const std::string& name) const = 0;
  /// True for a POST, whose body() is the request's body ("" for a GET).
  virtual bool posted() const = 0;
  virtual const std::string& body() const = 0;
  /// A served database of `game` by its id, or nullptr when none of that game has the id.
  virtual const TierSource* database(const std::string& id, const std::string& game) const = 0;
  /// The server's bound named `name` for this game's routes, or `fallback` when it sets none.
  virtual uint64_t limit(const std::string& name, uint64_t fallback) const = 0;

  /// A whole number parameter within [lo, hi], `fallback` when absent; throws
  /// std::invalid_argument naming it otherwise.
  long long integer(const std::string& name, long long fallback, long long lo, long long hi) const {
    if (!has(name)) return fallback;
    const std::string v = param(name);
    const std::optional<long long> x = whole_number(v, lo, hi);
    if (!x)
      throw std::invalid_argument(name + " must be a whole number from " + std::to_string(lo) +
                                  " to " + std::to_string(hi) + ", not '" + printable(v) + "'");
    return *x;
  }
};

/// A game route's answer: the HTTP status and the JSON body.
struct ApiAnswer {
  int status = 200;
  nlohmann::ordered_json body;
  static ApiAnswer error(int status, const std::string& message) {
    return {status, {{"error", message}}};
  }
};

/// One of a game's own routes: /api/<game>/<name>.
struct ApiRoute {
  std::string name;
  bool takes_post = false;  // answers POST (with a body) as well as GET and HEAD
  std::function<ApiAnswer(const ApiRequest&)> answer;
};

/// How GamesmanUni lists and shows a win/lose tier game's databases (`toadbase serve`'s
/// /uwapi/ routes): a 1 x n strip of two kinds of piece.
struct UwapiGame {
  std::string name;           // the game's name in GamesmanUni's list ("Toads and Frogs")
  bool one_player = false;    // a puzzle ("onePlayer") or a game of two ("twoPlayer")
  char mover = 0, other = 0;  // the two kinds of piece, as the autogui position writes them
  std::string instructions;   // GamesmanUni's instructions page, in Markdown
  /// A database's variant as GamesmanUni names it, from its parameters ("16 cells").
  std::function<std::string(const nlohmann::json& parameters)> describe;
};

template <class M>
concept WithUwapi = requires {
  { M::uwapi() } -> std::convertible_to<UwapiGame>;
};

/// One kind of piece of a strip (the page's "strip" view).
struct PagePiece {
  char letter = 0;    // as the position string writes it ('T')
  std::string name;   // in words, for a screen reader ("toad")
  std::string glyph;  // drawn on the piece, the way it moves too ("T\u203a")
  std::string style;  // its class in tools/web/toadbase.css ("toad")
};

/// A player of a two-player strip.
struct PageSide {
  std::string name;    // "Toads": the value line says "Toads to move win in 9"
  std::string colour;  // a CSS colour: the chart's line while this player is winning
};

/// A view of a game that needs no database (a forest walked, a roll file replayed): a card
/// on the page's start and an entry of its list, opened at #view=<id>.
struct PageTool {
  std::string id;      // the address's view=<id>, unique among every game's tools
  std::string kind;    // the page's view that shows it (tools/web/view-<kind>.js)
  std::string card;    // the start's card, under the game's title
  std::string picker;  // its entry in the page's list, after "<title>: "
  std::string about;   // the view's explanation under its heading
  std::string route;   // the game's own route it calls (api_routes(): /api/<game>/<route>)
  /// The address fields the card opens (#view=<id>&side=4...), in this order.
  nlohmann::ordered_json params = nlohmann::ordered_json::object();
};

/// How the page (`toadbase serve`, tools/web/) shows a game: /api/ lists it, and the page
/// knows no game but through it.
struct PageView {
  std::string title;  // the game in the page's headings ("Toads and Frogs")
  /// The view of a database: "plain" (any game: the position in, the query's JSON shown as a
  /// list, every move that names its position clickable), "strip" (a row of cells, each
  /// holding a piece or empty; a move's name holds the cells it goes from and to, in that
  /// order: "1-2", "L from 1 to 2"), "wanderer", "river", "values" (tools/web/view-<kind>.js).
  std::string kind = "plain";
  /// A database in a line, from its parameters ("Toads and Frogs, 8 cells"); without it the
  /// title and the parameters.
  std::function<std::string(const nlohmann::json& parameters)> describe;
  /// What a database's view says under its heading (the rules in short), from its parameters.
  std::function<std::string(const nlohmann::json& parameters)> about;
  /// A game route the view calls (api_routes(): /api/<game>/<route>): the strip puzzle's
  /// optimal solution, the wanderer's walk.
  std::string route;
  /// The field of the query's answer, and of each of its moves, that holds a position.
  std::string position_field = "position";
  bool turn_prefix = false;       // strip: position strings begin with the player to move ("1_")
  std::vector<PageSide> sides;    // strip, two players: players 1 and 2
  std::vector<PagePiece> pieces;  // strip: every kind of piece (other letters are empty cells)
  /// The view's sentences the game words itself (the strip puzzle: "solved", "stuck").
  std::map<std::string, std::string> words;
  std::vector<PageTool> tools;  // the game's views that need no database
};

template <class M>
concept WithPage = requires {
  { M::page() } -> std::convertible_to<PageView>;
};

// ---- the concept ----------------------------------------------------------------------

template <class M>
concept NamedGame = requires {
  { M::kName } -> std::convertible_to<const char*>;
  { M::kTitle } -> std::convertible_to<const char*>;
};

template <class M>
concept WithParameters = requires(const nlohmann::json& j) {
  { M::parameters() } -> std::convertible_to<std::vector<ParamSpec>>;
  { M::normalize(j) } -> std::convertible_to<nlohmann::json>;
};

template <class M>
concept TierGameRules = WithParameters<M> &&
    requires(const nlohmann::json& j, const std::string& s, const typename M::Position& p) {
  typename M::Space;
  typename M::Position;
  typename M::RecordType;
  requires TierGame<typename M::Space>;
  requires std::same_as<typename M::Position, typename M::Space::Position>;
  { M::make_space(j) } -> std::same_as<typename M::Space>;
  { M::parse(s, s) } -> std::same_as<typename M::Position>;
  { M::format(p) } -> std::convertible_to<std::string>;
  { M::moves(p) } -> std::convertible_to<std::vector<NamedMove<typename M::Position>>>;
};

template <class M>
concept OwnEngine = WithParameters<M> && requires(const nlohmann::json& j) {
  { M::make_instance(j) } -> std::convertible_to<std::unique_ptr<Instance>>;
};

template <class M>
concept WithCommands = requires(CLI::App& app, const Host& host) {
  { M::add_commands(app, host) } -> std::convertible_to<std::vector<GameCommand>>;
};

template <class M>
concept WithApiRoutes = requires {
  { M::api_routes() } -> std::convertible_to<std::vector<ApiRoute>>;
};

/// A tier game that offers a wider record for spaces whose remoteness can outgrow RecordType.
template <class M>
concept WithWideRecord = TierGameRules<M> && requires(const nlohmann::json& normalized) {
  typename M::WideRecordType;
  { M::remoteness_bound(normalized) } -> std::convertible_to<uint64_t>;
};

/// Declares a database (its `solve` parameters) but gives neither engine: a tier game with a
/// requirement missing or of the wrong type, which would otherwise register with no database.
template <class M>
concept ParametersWithoutEngine = WithParameters<M> && !TierGameRules<M> && !OwnEngine<M>;

/// A game module (see the top of this file): a game with parameters has a database and one of
/// the two engines; a game without brings its own subcommands.
template <class M>
concept Module = NamedGame<M> && !ParametersWithoutEngine<M> &&
                 (TierGameRules<M> || OwnEngine<M> || WithCommands<M>);

}  // namespace toadbase
