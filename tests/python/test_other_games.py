"""River Toad and Magic Forest databases through the same query and value (their own value
shapes), against the command's JSON. Slow: each database takes seconds to solve."""

import json

import numpy as np
import pytest
import toadbase

from conftest import answers_as_command


@pytest.mark.slow
def test_river_toad_through_the_module(dbs):
    db = toadbase.open(dbs["rt1"])
    assert not db.win_lose
    positions = [db.start, "1_20_3_0.0.0.0", "1_4_1_31.0.0.30", "1_2_5_33.33.33.33", "1_20_3_0.0.0.0",
                 "1_r21,21,10,14_p", "1_99_3_0.0.0.0", "2_20_3_0.0.0.0", "1_3_3_0.0.0"]
    answered = answers_as_command(dbs["rt1"], db.query, positions, missing=db.get_value)
    assert len(answered) <= len(positions) - 2
    for p, t in answered:
        v = db.value(p)
        assert v == {k: x for k, x in t.items() if k != "moves"}
        assert 0.0 <= v["survival"] <= 1.0
    with pytest.raises(TypeError, match="win/lose"):
        db.values(positions)
    with pytest.raises(ValueError, match="no player to move to give"):
        db.value(positions[0], 1)
    tier = db.tiers()[0]
    recs = tier.records()
    assert recs.shape == (tier.size, 8) and recs.dtype == np.uint8
    # record i is position(i)'s: its count of surviving roll sequences, low 61 bits
    counts = recs.copy().view("<u8").ravel() & ((1 << 61) - 1)
    for i in (0, tier.size // 3, tier.size - 1):
        assert int(counts[i]) == int(db.value(tier.position(i))["count"])


@pytest.mark.slow
def test_forest_through_the_module(dbs):
    db = toadbase.open(dbs["forest3"])
    belief = {"side": 3, "start": [0, 0], "at": [0, 0]}
    positions = [json.dumps(belief), json.dumps({"side": 3, "start": [1, 1], "at": [1, 1]}), '{"side": 3}', "nonsense"]
    answered = answers_as_command(dbs["forest3"], db.query, positions)
    for p, t in answered:
        assert db.value(p) == t
    # a belief may be given as a dict
    assert answered[0][0] == positions[0]
    assert db.query(belief) == answered[0][1]
    v = db.value(belief)
    assert set(v) == {"position", "value", "decision"} and v["value"] > 0
