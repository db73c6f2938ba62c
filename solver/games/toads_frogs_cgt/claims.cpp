// The value database's claims (module.hpp's ValueClaims): `export --format tsv` writes
// board<TAB>value for every board without dead pieces, and `validate` checks such lines from
// another program, the values compared as games (parsed and made canonical in a table of
// their own beside the database's value made from its stored options), not as strings.
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "solver/games/toads_frogs_cgt/instance.hpp"

namespace toadbase::toads_frogs_cgt {

uint64_t CgtInstance::claim_lines(const TierSource&) const {
  uint64_t lines = 0;
  for (uint32_t k = 0; k < boards_.class_count(); ++k) {
    const BoardClass& c = boards_.cls(k);
    lines += c.size * (c.t < c.f ? 2 : 1);
  }
  return lines;
}

void CgtInstance::each_claim(const TierSource& source, const std::function<void(const std::string&)>& line) const {
  const FormReader forms(source, layout());
  const uint32_t F = forms.count();
  std::string text;
  for (uint32_t k = 0; k < boards_.class_count(); ++k) {
    const BoardClass& c = boards_.cls(k);
    const std::vector<uint32_t> ids = source.load<uint32_t>(layout().board(k));
    for (uint64_t i = 0; i < ids.size(); ++i) {
      if (ids[i] >= F) throw std::runtime_error("class " + c.name() + " names a form beyond the table (damaged)");
      const Board b = boards_.unrank(k, i);
      text = board_string(b) + '\t' + forms.text(ids[i]);
      line(text);
      if (c.t < c.f) {  // its mirror is not stored: its value is the negative
        text = board_string(mirror(b)) + '\t' + forms.text(forms.negative(ids[i]));
        line(text);
      }
    }
  }
}

ValueClaims::Checker CgtInstance::claim_checker(const TierSource& source) const {
  // one table for every claim: the database's forms made in it once (by id), each claimed
  // value parsed into it; equal games are the same canonical form, the same id
  struct State {
    State(const TierSource& s, TierLayout lay) : forms(s, lay) {}
    FormReader forms;
    cgt::FormTable table;
    std::unordered_map<uint32_t, cgt::FormId> made;
  };
  auto st = std::make_shared<State>(source, layout());
  return [this, &source, st](const std::string& position, const std::string& value) {
    const Board b = parse(position);
    const uint32_t id = form_of(source, st->forms, b);
    cgt::FormId claimed;
    try {
      claimed = st->table.parse(value);
    } catch (const cgt::ParseError&) {
      throw;
    } catch (const std::overflow_error& e) {
      throw std::invalid_argument(std::string("value: ") + e.what());
    }
    auto it = st->made.find(id);
    if (it == st->made.end()) it = st->made.emplace(id, st->forms.build(st->table, id)).first;
    Verdict v;
    v.position = board_string(b);
    v.agrees = it->second == claimed;
    if (!v.agrees) v.value = st->forms.text(id);  // read only for a disagreement's line
    return v;
  };
}

}  // namespace toadbase::toads_frogs_cgt
