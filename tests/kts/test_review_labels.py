"""``kaptai review kap-tai-shap``: a claim decision's options name the tile offered, as the play
hint names the claim (``claim 2-5``; declining: ``no claim (let 2-5 go)``), in the table, the
JSON and the summary, under both advisors; the ``kind`` column stays ``claim``, discards stay
their tile."""

from __future__ import annotations

import json
import re

import pytest

from kaptai.core.review import review, summarize
from kaptai.kts import play
from kaptai.kts import review_search as RS
from kaptai.kts.records import record_hands
from kaptai.kts.tiles import format_tile

#: A claim decision's two labels, the offered tile captured.
CLAIM = re.compile(r"^claim (\d-\d)$")
NO_CLAIM = re.compile(r"^no claim \(let (\d-\d) go\)$")


@pytest.fixture(scope="module")
def rec(tmp_path_factory):
    """One hand of ``random`` at every seat (--seed 1): claims taken and let go at every seat."""
    p = tmp_path_factory.mktemp("labels") / "r.jsonl"
    record_hands(p, 4, policies="random", hands=1, seed=1)
    return p


def _offered(path):
    return {(d.hand, d.index): format_tile(d.extra["offered"]) for d in play.decisions(play.read(path))
            if d.kind == "claim"}


def _tile_of(label):
    m = CLAIM.match(label) or NO_CLAIM.match(label)
    assert m, f"{label!r} does not name the offered tile"
    return m.group(1)


def test_claim_labels_name_the_tile():
    assert play.claim_labels(8) == (f"claim {format_tile(8)}", f"no claim (let {format_tile(8)} go)")


@pytest.mark.parametrize("adapter", [play, RS], ids=["exact", "search"])
def test_the_review_s_claim_rows_name_the_offered_tile(rec, adapter):
    df = review(adapter, rec, "kap-tai-shap", seed=0, samples=4)
    offered = _offered(rec)
    claims = df[df.kind == "claim"]
    assert len(claims) >= 10 and {"claim", "no_claim"}.isdisjoint(set(claims.made) | set(claims.best))
    made = {bool(CLAIM.match(m)) for m in claims.made}
    assert made == {True, False}  # claims both taken and let go in this record
    for r in claims.itertuples():
        assert _tile_of(r.made) == _tile_of(r.best) == offered[(r.hand, r.decision)], r
    discards = df[df.kind == "discard"]
    assert discards.made.str.fullmatch(r"\d-\d").all() and discards.best.str.fullmatch(r"\d-\d").all()
    s = summarize(df[df.kind == "claim"])
    worst = s[s.level == "record"].iloc[0].worst_decision
    assert re.search(r": (claim \d-\d|no claim \(let \d-\d go\)) \(best (claim \d-\d|no claim \(let \d-\d go\))\)$",
                     worst), worst


def test_the_command_s_table_and_json_name_the_offered_tile(rec, capsys):
    from kaptai.cli import main

    offered = _offered(rec)
    assert main(["review", "kap-tai-shap", str(rec), "--advisor", "exact", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    claims = [r for r in rows if r["kind"] == "claim"]
    assert claims and all(_tile_of(r["made"]) == _tile_of(r["best"]) == offered[(r["hand"], r["decision"])]
                          for r in claims)
    assert main(["review", "kap-tai-shap", str(rec), "--advisor", "exact"]) == 0
    text = capsys.readouterr().out
    lines = [ln for ln in text.splitlines() if re.match(r"^\s*\d+\s+\d+\s+\d+\s+claim\s", ln)]
    assert len(lines) == len(claims) and all(re.search(r"\bclaim \d-\d\b|no claim \(let \d-\d go\)", ln)
                                             for ln in lines), text
    assert "no claim (let " in text and "no_claim" not in text, text
