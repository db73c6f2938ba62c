"""River Toad and Magic Forest databases through the same query and value (their own value
shapes), against the command's JSON. Slow: each database takes seconds to solve."""

import json

import numpy as np
import pytest
import toadbase

from conftest import command_queries


@pytest.mark.slow
def test_river_toad_through_the_module(dbs):
    db = toadbase.open(dbs["rt1"])
    assert not db.win_lose
    positions = [db.start, "1_20_3_0.0.0.0", "1_4_1_31.0.0.30", "1_2_5_33.33.33.33", "1_20_3_0.0.0.0",
                 "1_r21,21,10,14_p", "1_99_3_0.0.0.0", "2_20_3_0.0.0.0", "1_3_3_0.0.0"]
    theirs = command_queries(dbs["rt1"], positions)
    assert sum("error" in t for t in theirs) >= 2
    for p, t in zip(positions, theirs):
        if "error" in t:
            with pytest.raises(ValueError) as e:
                db.query(p)
            assert str(e.value) == t["error"]
            assert db.get_value(p) is None
            continue
        assert json.dumps(db.query(p)) == json.dumps(t)
        v = db.value(p)
        assert v == {k: x for k, x in t.items() if k != "moves"}
        assert 0.0 <= v["survival"] <= 1.0
    with pytest.raises(TypeError, match="win/lose"):
        db.values(positions)
    with pytest.raises(ValueError, match="no turn"):
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
    theirs = command_queries(dbs["forest3"], positions)
    for p, t in zip(positions, theirs):
        if "error" in t:
            with pytest.raises(ValueError) as e:
                db.query(p)
            assert str(e.value) == t["error"]
            continue
        assert json.dumps(db.query(p)) == json.dumps(t)
        assert db.value(p) == t
    # a belief may be given as a dict
    assert db.query(belief) == theirs[0]
    v = db.value(belief)
    assert set(v) == {"position", "value", "decision"} and v["value"] > 0
