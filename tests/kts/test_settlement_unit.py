"""One rule names Kap Tai Shap's money unit: antes under the pot settlement, points under advanced
scoring (:func:`kaptai.kts.rules.settlement_unit`); the record's unit, the league's per-ruleset
unit and its plots' axis units, and the report's fairness ranking all follow it."""

from __future__ import annotations

import pandas as pd
import pytest

from kaptai.kts import plots
from kaptai.kts.league import _money_units
from kaptai.kts.records import UNIT, unit_of
from kaptai.kts.rules import PRESETS, SETTLEMENTS, resolve_rules, settlement_unit


@pytest.mark.parametrize("settlement", SETTLEMENTS)
def test_every_spelling_is_the_one_rule(settlement):
    plural, one = settlement_unit(settlement), settlement_unit(settlement, singular=True)
    assert plural == one + "s" and plural == ("points" if settlement == "advanced" else "antes")
    rules = resolve_rules("traditional", settlement=settlement)
    assert unit_of(rules) == plural
    named = pd.DataFrame({"rules": ["mine"]})
    named.attrs["settings"] = {"rules": [rules.to_dict() | {"name": "mine"}]}
    assert _money_units(named) == {"mine": plural}
    assert plots._unit_of(pd.DataFrame({"settlement": [settlement, settlement]})) == plural


def test_names_without_settings_and_the_pot_default():
    assert UNIT == settlement_unit("pot") == settlement_unit(None) == "antes"
    df = pd.DataFrame({"rules": [*PRESETS, "custom"]})
    assert _money_units(df) == {n: unit_of(r) for n, r in PRESETS.items()} | {"custom": "antes"}
    assert plots._unit_of(pd.DataFrame({"settlement": ["pot", "advanced"]})) == "antes under the pot, points under advanced"
    assert plots._unit_of(pd.DataFrame({"x": [1]})) == "antes"
