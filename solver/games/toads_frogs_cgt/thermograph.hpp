// A value's thermograph as JSON, for `toadbase cgt thermograph VALUE` and the page's drawing
// (GET /api/toads-frogs-cgt/thermograph?value=V). The value is any game in the notation
// query prints (solver/cgt): it is parsed into a table of its own, so no database is read.
//
//   {"value": "{2|-1}", "mean": "1/2", "temperature": "3/2",
//    "leftWall":  [{"from": "0", "value": "2",  "slope": -1}, {"from": "3/2", "value": "1/2", "slope": 0}],
//    "rightWall": [{"from": "0", "value": "-1", "slope": 1},  {"from": "3/2", "value": "1/2", "slope": 0}]}
//
// Each wall is pieces: from temperature `from` on (to the next piece's), the wall is at
// value + slope * (t - from). Left's wall is the cooled game's left stop, Right's its right
// stop; they meet at the temperature and go on as the mast, the mean. A number's walls are
// the mast from t = 0 (temperature -1/2^k, CGSuite's convention: an integer's is -1).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace toadbase::toads_frogs_cgt {

/// Throws UsageError (std::invalid_argument) naming what is wrong for a value that does not
/// parse or is past the notation's bounds.
nlohmann::ordered_json thermograph_json(const std::string& value);

}  // namespace toadbase::toads_frogs_cgt
