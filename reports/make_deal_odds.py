"""Regenerate reports/kap-tai-shap-deal-odds.csv: exact deal odds for every
player count 2-22 under both presets (distance tables included).

    python reports/make_deal_odds.py
"""
import pathlib
import sys
import time

import pandas as pd

from kaptai.kts import deal_odds

OUT = pathlib.Path(__file__).resolve().parent / "kap-tai-shap-deal-odds.csv"


def main() -> None:
    frames = []
    start = time.perf_counter()
    for players in range(2, 23):
        for rules in ("traditional", "advanced"):
            frames.append(deal_odds(players, rules))
            print(f"\r{players:2d} players, {rules:11s} {time.perf_counter() - start:6.1f}s", end="", file=sys.stderr)
    print(file=sys.stderr)
    pd.concat(frames).to_csv(OUT, index=False)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
