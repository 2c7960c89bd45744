"""Slow, obviously-correct reference evaluator for Kap Tai Shap (夾大十) and Kap Shap (夾十).

This module is the **test oracle**: it is written straight from the rules page
(``docs/rules/kap-tai-shap.md`` §1, §3, §4) and deliberately shares no code with the
compiled evaluator.  It imports nothing from :mod:`kaptai` and keeps its own copy of
the 21-tile table, so it can be read (and trusted) on its own.

Model
-----
A hand is a length-21 vector of counts (index = tile id of the rules table).  A winning
hand has ``2n + 2`` tiles (n = 4 for Kap Tai Shap, n = 3 for Kap Shap) and is a
partition of the whole hand into groups:

* **eye** (眼) -- two tiles of the same id; a **general eye** (將眼) is an eye of id
  0, 1, 2 or 3 (6-6, 1-1, 4-4, 1-3);
* **ten pair** (湊十牌) -- two tiles (identical ids allowed) whose ten-values sum to
  10 or 20;
* **run** (相連) of length L -- L tiles whose run-values are L consecutive integers, one
  tile per value.

The forms are ``basic`` (1 eye + n ten pairs), ``general_eyes`` (k >= 2 general eyes +
n + 1 - k ten pairs), ``run4`` / ``run6`` / ``run8`` (1 eye + a run of 4 / 6 / 8 +
ten pairs).  A decomposition scores ``base + general-eye bonus`` where base is the max
(or the sum) of the form item and the pattern items that hold (all even 4, all odd 5,
all pairs 8) and each general-eye group adds 1.  The hand scores the best of its
decompositions.

The search is the obvious one: for each form, choose the eye(s) and the run explicitly,
then partition the rest into ten pairs by a memoised recursion that always pairs the
lowest remaining tile id with every possible partner.

Examples
--------
>>> hand = [0] * 21
>>> for tile in (9, 9, 9, 20, 5, 3, 10, 6, 0, 2):  # 16 16 · 16+12 · 33+13 · 15+22 · 66+44
...     hand[tile] += 1
>>> score(hand, "advanced")
2
>>> best(hand, "advanced").form
'basic'
>>> hand[20] -= 1                                   # drop the 1-2: a ready 9-tile hand
>>> waits(hand, "traditional")
[19, 20]
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from types import SimpleNamespace
from typing import Any, Sequence

__all__ = [
    "N_TILES",
    "TEN_VALUE",
    "RUN_VALUE",
    "GENERAL_EYE_IDS",
    "FORMS",
    "PATTERNS",
    "PRESETS",
    "TEN_PAIRS",
    "Decomposition",
    "decompositions",
    "is_win",
    "score",
    "best",
    "waits",
    "specials",
    "winning_hands",
    "max_overlap",
]

# ---------------------------------------------------------------------------------------
# §1 Tiles -- our own copy of the table (id: pips, ten-value, run-value).
# ---------------------------------------------------------------------------------------
#: Number of tile types.
N_TILES = 21
#: Ten-value of each tile id (2-4, id 19, counts 3).
TEN_VALUE = (12, 2, 8, 4, 10, 6, 4, 11, 10, 7, 6, 9, 9, 8, 8, 7, 7, 5, 5, 3, 3)
#: Run-value of each tile id with the default ``gee_joon_run_value`` = 6 (id 19 is 2-4).
RUN_VALUE = (12, 2, 8, 4, 10, 6, 4, 11, 10, 7, 6, 9, 9, 8, 8, 7, 7, 5, 5, 6, 3)
#: Tile id of 2-4, the only tile whose run-value is an option.
GEE_JOON_SIX = 19
#: Ids whose eye is a general eye: heaven 6-6, earth 1-1, man 4-4, harmony 1-3.
GENERAL_EYE_IDS = (0, 1, 2, 3)

#: Form names in tie-break order (earlier wins a tie).
FORMS = ("basic", "general_eyes", "run4", "run6", "run8")
#: Pattern names.
PATTERNS = ("all_even", "all_odd", "all_pairs")
#: Base points of each form item (``basic`` and ``general_eyes`` are both a basic win).
FORM_POINTS = {"basic": 2, "general_eyes": 2, "run4": 2, "run6": 4, "run8": 8}
#: Base points of each pattern item.
PATTERN_POINTS = {"all_even": 4, "all_odd": 5, "all_pairs": 8}
#: Run length of each run form.
RUN_LENGTH = {"run4": 4, "run6": 6, "run8": 8}

#: The two presets of the rules page §9 (only the options that matter for a hand).
PRESETS = {
    "traditional": SimpleNamespace(
        forms=frozenset({"basic"}), gee_joon_run_value=6, base_combination="max"
    ),
    "advanced": SimpleNamespace(
        forms=frozenset(FORMS), gee_joon_run_value=6, base_combination="max"
    ),
}

#: Every ten pair by tile type, as ``(a, b)`` with ``a <= b``: 16 summing to 10 and 8 to 20.
TEN_PAIRS = tuple(
    (a, b)
    for a in range(N_TILES)
    for b in range(a, N_TILES)
    if (TEN_VALUE[a] + TEN_VALUE[b]) % 10 == 0
)
#: For each tile id, the ids (ascending) that make a ten pair with it.
_PARTNERS = tuple(
    tuple(b for b in range(N_TILES) if (TEN_VALUE[a] + TEN_VALUE[b]) % 10 == 0)
    for a in range(N_TILES)
)


# ---------------------------------------------------------------------------------------
# Input handling
# ---------------------------------------------------------------------------------------
def _rules_key(rules: Any) -> tuple[frozenset[str], int, str]:
    """Reduce a rules object or preset name to a hashable ``(forms, run value, base)``."""
    if isinstance(rules, str):
        if rules not in PRESETS:
            raise ValueError(
                f"unknown preset {rules!r}; expected one of {sorted(PRESETS)}"
            )
        rules = PRESETS[rules]
    try:
        raw_forms = rules.forms
        run_value = rules.gee_joon_run_value
        combination = rules.base_combination
    except AttributeError as exc:
        raise ValueError(
            "rules must be a preset name or have attributes forms, "
            f"gee_joon_run_value and base_combination ({exc})"
        ) from None
    if isinstance(raw_forms, str):
        raw_forms = (raw_forms,)
    forms = frozenset(str(getattr(f, "value", f)) for f in raw_forms)
    unknown = forms - set(FORMS)
    if unknown:
        raise ValueError(f"unknown forms {sorted(unknown)}; expected some of {FORMS}")
    run_value = int(run_value)
    if run_value not in (3, 6):
        raise ValueError(f"gee_joon_run_value must be 6 or 3, got {run_value}")
    combination = str(getattr(combination, "value", combination))
    if combination not in ("max", "sum"):
        raise ValueError(f"base_combination must be 'max' or 'sum', got {combination!r}")
    return forms, run_value, combination


def _counts(counts: Sequence[int]) -> tuple[int, ...]:
    """Validate a count vector and return it as a tuple of Python ints."""
    result = tuple(int(c) for c in counts)
    if len(result) != N_TILES:
        raise ValueError(f"a hand is a vector of {N_TILES} counts, got {len(result)}")
    if min(result) < 0:
        raise ValueError(f"tile counts must be non-negative, got {list(result)}")
    return result


def _hand_n(counts: tuple[int, ...]) -> int:
    """n of a complete hand of 2n + 2 tiles."""
    size = sum(counts)
    if size % 2 or size < 4:
        raise ValueError(f"a complete hand has an even number >= 4 of tiles, got {size}")
    return (size - 2) // 2


def _remove(counts: tuple[int, ...], tiles: Sequence[int]) -> tuple[int, ...] | None:
    """``counts`` minus the given tiles, or None if the hand does not hold them."""
    rest = list(counts)
    for t in tiles:
        rest[t] -= 1
        if rest[t] < 0:
            return None
    return tuple(rest)


# ---------------------------------------------------------------------------------------
# Ten-pair partitions and runs
# ---------------------------------------------------------------------------------------
@lru_cache(maxsize=1 << 18)
def _ten_pair_partitions(counts: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every partition of ``counts`` into ten pairs, each a sorted tuple of ``(a, b)``.

    The lowest remaining tile ``t`` must be in some pair ``(t, u)`` with ``u >= t``; try
    every partner.  A partition is listed once: its pairs are kept in sorted order, so
    the pair chosen here must not be larger than the first pair of the rest.
    """
    lowest = next((t for t, c in enumerate(counts) if c), None)
    if lowest is None:
        return ((),)
    found = []
    for partner in _PARTNERS[lowest]:
        if partner < lowest:
            continue
        rest = _remove(counts, (lowest, partner))
        if rest is None:
            continue
        for tail in _ten_pair_partitions(rest):
            if tail and tail[0] < (lowest, partner):
                continue  # the same multiset is listed when that smaller pair comes first
            found.append(((lowest, partner),) + tail)
    return tuple(found)


def _runs(counts: tuple[int, ...], length: int, run_values: tuple[int, ...]):
    """Every run of ``length`` tiles held in ``counts``, as a tuple of ids ascending."""
    by_value: dict[int, list[int]] = {}
    for t in range(N_TILES):
        if counts[t]:
            by_value.setdefault(run_values[t], []).append(t)
    for low in range(min(run_values), max(run_values) - length + 2):
        choices = [by_value.get(v, []) for v in range(low, low + length)]
        if all(choices):
            for run in itertools.product(*choices):
                yield tuple(sorted(run))


# ---------------------------------------------------------------------------------------
# Decompositions
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Decomposition:
    """One way to read a hand as a winning form.

    Attributes
    ----------
    form : str
        ``'basic'``, ``'general_eyes'``, ``'run4'``, ``'run6'`` or ``'run8'``.
    groups : tuple of (str, tuple of int)
        The groups: ``(kind, tile ids)`` with kind ``'eye'``, ``'general_eye'``,
        ``'ten_pair'`` or ``'run'``.  Eyes come first, then the run, then the ten pairs.
    score : int
        Base plus general-eye bonus (no self-draw or streak bonus).
    patterns : frozenset of str
        Which of ``'all_even'``, ``'all_odd'``, ``'all_pairs'`` hold.
    """

    form: str
    groups: tuple[tuple[str, tuple[int, ...]], ...]
    score: int
    patterns: frozenset[str]


def _eye_group(tile: int) -> tuple[str, tuple[int, ...]]:
    kind = "general_eye" if tile in GENERAL_EYE_IDS else "eye"
    return (kind, (tile, tile))


def _make(form: str, groups: list, combination: str) -> Decomposition:
    """Score one decomposition (rules page §4)."""
    tiles = [t for _, ids in groups for t in ids]
    patterns = set()
    if all(TEN_VALUE[t] % 2 == 0 for t in tiles):
        patterns.add("all_even")
    if all(TEN_VALUE[t] % 2 == 1 for t in tiles):
        patterns.add("all_odd")
    if all(len(ids) == 2 and ids[0] == ids[1] for _, ids in groups):
        patterns.add("all_pairs")
    items = [FORM_POINTS[form]] + [PATTERN_POINTS[p] for p in patterns]
    base = max(items) if combination == "max" else sum(items)
    bonus = sum(1 for kind, _ in groups if kind == "general_eye")
    return Decomposition(form, tuple(groups), base + bonus, frozenset(patterns))


def _sort_key(d: Decomposition):
    """Best first: higher score, then earlier form, then the groups themselves."""
    return (-d.score, FORMS.index(d.form), d.groups)


@lru_cache(maxsize=1 << 16)
def _analyse(counts: tuple[int, ...], key: tuple) -> tuple[Decomposition, ...]:
    forms, run_value, combination = key
    n = _hand_n(counts)
    run_values = RUN_VALUE[:GEE_JOON_SIX] + (run_value,) + RUN_VALUE[GEE_JOON_SIX + 1 :]
    eyes = [t for t in range(N_TILES) if counts[t] >= 2]
    found: list[Decomposition] = []

    def add(form, special_groups, rest):
        for pairs in _ten_pair_partitions(rest):
            groups = special_groups + [("ten_pair", p) for p in pairs]
            found.append(_make(form, groups, combination))

    if "basic" in forms:  # 1 eye + n ten pairs
        for e in eyes:
            add("basic", [_eye_group(e)], _remove(counts, (e, e)))

    if "general_eyes" in forms:  # k >= 2 general eyes + (n + 1 - k) ten pairs
        ranges = [range(counts[t] // 2 + 1) for t in GENERAL_EYE_IDS]
        for ks in itertools.product(*ranges):
            if sum(ks) < 2:
                continue
            taken = [t for t, k in zip(GENERAL_EYE_IDS, ks) for _ in range(2 * k)]
            special = [_eye_group(t) for t, k in zip(GENERAL_EYE_IDS, ks) for _ in range(k)]
            add("general_eyes", special, _remove(counts, taken))

    for form, length in RUN_LENGTH.items():  # 1 eye + run of L + (n - L/2) ten pairs
        if form not in forms or length > 2 * n:
            continue
        for e in eyes:
            after_eye = _remove(counts, (e, e))
            assert after_eye is not None  # e is an eye: the hand holds two
            for run in _runs(after_eye, length, run_values):
                add(form, [_eye_group(e), ("run", run)], _remove(after_eye, run))

    return tuple(sorted(found, key=_sort_key))


def decompositions(counts: Sequence[int], rules: Any) -> list[Decomposition]:
    """Every valid decomposition of a complete hand, best first.

    Parameters
    ----------
    counts : sequence of int
        Length-21 count vector (index = tile id) with an even total 2n + 2
        (10 for Kap Tai Shap, 8 for Kap Shap).
    rules : str or object
        ``'traditional'``, ``'advanced'``, or any object with attributes ``forms``,
        ``gee_joon_run_value`` and ``base_combination``.

    Returns
    -------
    list of Decomposition
        Each multiset of groups once, sorted by score (high first), then form order
        (basic, general_eyes, run4, run6, run8), then groups.  Empty if not a win.

    Examples
    --------
    >>> hand = [0] * 21
    >>> hand[0] = hand[2] = hand[17] = hand[4] = hand[8] = 2  # 66 66 44 44 14 14 55 55 46 46
    >>> [(d.form, d.score) for d in decompositions(hand, "advanced")][:3]
    [('general_eyes', 10), ('general_eyes', 4), ('basic', 2)]
    >>> decompositions(hand, "advanced")[0].groups[:3]
    (('general_eye', (0, 0)), ('general_eye', (2, 2)), ('ten_pair', (4, 4)))
    """
    return list(_analyse(_counts(counts), _rules_key(rules)))


def best(counts: Sequence[int], rules: Any) -> Decomposition | None:
    """The highest-scoring decomposition (ties: earlier form first), or None.

    Parameters
    ----------
    counts : sequence of int
        Length-21 count vector of a complete hand.
    rules : str or object
        Preset name or rules object (see :func:`decompositions`).

    Returns
    -------
    Decomposition or None
    """
    found = _analyse(_counts(counts), _rules_key(rules))
    return found[0] if found else None


def score(counts: Sequence[int], rules: Any) -> int:
    """Score of a complete hand (base + general-eye bonus), or -1 if it is not a win.

    Parameters
    ----------
    counts : sequence of int
        Length-21 count vector of a complete hand.
    rules : str or object
        Preset name or rules object (see :func:`decompositions`).

    Returns
    -------
    int

    Examples
    --------
    >>> score([0] * 20 + [2], "traditional")  # a lone eye is not a hand of 2n + 2 >= 4
    Traceback (most recent call last):
    ...
    ValueError: a complete hand has an even number >= 4 of tiles, got 2
    >>> score([2, 0, 0, 0, 0, 0, 0, 0, 2] + [0] * 12, "traditional")  # 66 66 · 46+46
    9
    >>> score([2, 1, 0, 0, 0, 0, 0, 0, 1] + [0] * 12, "traditional")  # 66 66 · 11+46
    -1
    """
    found = _analyse(_counts(counts), _rules_key(rules))
    return found[0].score if found else -1


def is_win(counts: Sequence[int], rules: Any) -> bool:
    """Whether a complete hand has at least one valid decomposition.

    Parameters
    ----------
    counts : sequence of int
        Length-21 count vector of a complete hand.
    rules : str or object
        Preset name or rules object (see :func:`decompositions`).

    Returns
    -------
    bool
    """
    return bool(_analyse(_counts(counts), _rules_key(rules)))


def waits(counts: Sequence[int], rules: Any) -> list[int]:
    """The tiles that complete a hand of 2n + 1 tiles (ready hand, 聽牌).

    Purely combinatorial: how many copies of a tile exist is not checked.

    Parameters
    ----------
    counts : sequence of int
        Length-21 count vector with an odd total 2n + 1.
    rules : str or object
        Preset name or rules object (see :func:`decompositions`).

    Returns
    -------
    list of int
        Tile ids t, ascending, such that ``counts + t`` is a win.
    """
    hand = _counts(counts)
    if sum(hand) % 2 != 1:
        raise ValueError(f"waits needs a hand of an odd number of tiles, got {sum(hand)}")
    key = _rules_key(rules)
    result = []
    for t in range(N_TILES):
        grown = list(hand)
        grown[t] += 1
        if _analyse(tuple(grown), key):
            result.append(t)
    return result


def specials(counts: Sequence[int], rules: Any) -> frozenset[str]:
    """Special items that hold in at least one valid decomposition.

    Parameters
    ----------
    counts : sequence of int
        Length-21 count vector of a complete hand.
    rules : str or object
        Preset name or rules object (see :func:`decompositions`).

    Returns
    -------
    frozenset of str
        Among ``'all_even'``, ``'all_odd'``, ``'all_pairs'`` (patterns) and
        ``'general_eyes'``, ``'run4'``, ``'run6'``, ``'run8'`` (forms).
    """
    result: set[str] = set()
    for d in _analyse(_counts(counts), _rules_key(rules)):
        result |= d.patterns
        if d.form != "basic":
            result.add(d.form)
    return frozenset(result)


# ---------------------------------------------------------------------------------------
# Brute-force list of winning hands and distance from ready
# ---------------------------------------------------------------------------------------
def _ten_pair_multisets(m: int, copies: tuple[int, ...]):
    """Distinct count vectors of m ten pairs (by type) that fit in ``copies``."""
    import numpy as np

    pair_vectors = np.zeros((len(TEN_PAIRS), N_TILES), dtype=np.int16)
    for i, (a, b) in enumerate(TEN_PAIRS):
        pair_vectors[i, a] += 1
        pair_vectors[i, b] += 1
    combos = list(itertools.combinations_with_replacement(range(len(TEN_PAIRS)), m))
    if m == 0:
        return np.zeros((1, N_TILES), dtype=np.int16)
    vectors = pair_vectors[np.array(combos)].sum(axis=1, dtype=np.int16)
    vectors = vectors[(vectors <= np.array(copies)).all(axis=1)]
    return _unique_rows(vectors)


def _unique_rows(rows):
    """Unique rows of a small non-negative integer matrix, in lexicographic order.

    Same result as ``np.unique(rows, axis=0)``, but each row is first packed into a few
    int64 keys (base ``max + 1`` digits, most significant first), which sorts far faster.
    """
    import numpy as np

    if len(rows) == 0:
        return rows
    base = int(rows.max()) + 1
    digits = 1
    while base ** (digits + 1) < 2**62:
        digits += 1
    keys = []
    for start in range(0, rows.shape[1], digits):
        # Horner's rule column by column: one int64 per row at a time, not a widened copy
        key = np.zeros(len(rows), dtype=np.int64)
        for j in range(start, min(start + digits, rows.shape[1])):
            key *= base
            key += rows[:, j]
        keys.append(key)
    order = np.lexsort(keys[::-1])
    keys = np.stack(keys, axis=1)[order]
    first = np.ones(len(keys), dtype=bool)
    first[1:] = (keys[1:] != keys[:-1]).any(axis=1)
    return rows[order[first]]


@lru_cache(maxsize=32)
def _winning_hands(key: tuple, copies: tuple[int, ...], n: int):
    import numpy as np

    forms, run_value, _ = key
    run_values = RUN_VALUE[:GEE_JOON_SIX] + (run_value,) + RUN_VALUE[GEE_JOON_SIX + 1 :]
    cap = np.array(copies, dtype=np.int16)

    def vector(tiles):
        v = [0] * N_TILES
        for t in tiles:
            v[t] += 1
        return v

    # The non-ten-pair part of each form ("special groups"), grouped by the number of
    # ten pairs still needed to reach 2n + 2 tiles.
    specials_by_m: dict[int, list[list[int]]] = {}
    everything = tuple([2 * n + 2] * N_TILES)
    if "basic" in forms:
        for e in range(N_TILES):
            specials_by_m.setdefault(n, []).append(vector((e, e)))
    if "general_eyes" in forms:
        for k in range(2, n + 2):
            for eyes in itertools.combinations_with_replacement(GENERAL_EYE_IDS, k):
                specials_by_m.setdefault(n + 1 - k, []).append(vector(eyes * 2))
    for form, length in RUN_LENGTH.items():
        if form in forms and length <= 2 * n:
            for run in _runs(everything, length, run_values):
                for e in range(N_TILES):
                    specials_by_m.setdefault(n - length // 2, []).append(
                        vector(run + (e, e))
                    )

    blocks = [np.zeros((0, N_TILES), dtype=np.int16)]
    for m, special_list in specials_by_m.items():
        tails = _ten_pair_multisets(m, copies)
        heads = np.array(special_list, dtype=np.int16)
        heads = heads[(heads <= cap).all(axis=1)]
        for head in heads:
            hands = tails + head
            blocks.append(hands[(hands <= cap).all(axis=1)])
    hands = _unique_rows(np.concatenate(blocks)).astype(np.int8)
    hands.setflags(write=False)
    return hands


def winning_hands(rules: Any, copies: Sequence[int], n: int = 4):
    """Every feasible winning count vector of 2n + 2 tiles, by generic enumeration.

    Built from the forms directly (eye / general eyes / run choices times every multiset
    of ten-pair types), not from :func:`decompositions`, and cached per
    ``(rules, copies, n)``.

    Parameters
    ----------
    rules : str or object
        Preset name or rules object (see :func:`decompositions`).
    copies : sequence of int
        Length-21 vector: how many copies of each tile the sets hold.
    n : int, default 4
        4 for Kap Tai Shap (10 tiles), 3 for Kap Shap (8 tiles).

    Returns
    -------
    numpy.ndarray
        Read-only int8 array of shape (hands, 21), rows unique and sorted, every row
        ``<= copies``.

    Examples
    --------
    >>> one_set = [2] * 11 + [1] * 10
    >>> hands = winning_hands("traditional", one_set, n=1)  # 1 eye + 1 ten pair
    >>> hands.shape
    (217, 21)
    """
    copies = _counts(copies)
    return _winning_hands(_rules_key(rules), copies, int(n))


def max_overlap(counts: Sequence[int], rules: Any, copies: Sequence[int], *, n: int = 4) -> int:
    """Most tiles of ``counts`` that a feasible winning hand can share with it.

    This is the oracle for the "distance from ready" metric: for a hand of 2n + 1 tiles,
    ``distance = (2n + 1) - max_overlap`` (0 means ready, 聽牌).  Brute force: the
    maximum of ``sum_i min(counts[i], W[i])`` over every W of :func:`winning_hands`.

    Parameters
    ----------
    counts : sequence of int
        Length-21 count vector of any size.
    rules : str or object
        Preset name or rules object (see :func:`decompositions`).
    copies : sequence of int
        Length-21 vector: how many copies of each tile the sets hold; W[i] <= copies[i].
    n : int, default 4
        Winning hands have 2n + 2 tiles.

    Returns
    -------
    int
        0 if no feasible winning hand exists.

    Examples
    --------
    >>> two_sets = [4] * 11 + [2] * 10
    >>> ready = [0] * 21
    >>> for tile in (9, 9, 9, 5, 3, 10, 6, 0, 2):  # 16 16 16 33 13 15 22 66 44
    ...     ready[tile] += 1
    >>> max_overlap(ready, "traditional", two_sets)
    9
    """
    import numpy as np

    hand = np.array(_counts(counts), dtype=np.int16)
    hands = winning_hands(rules, copies, n)
    if len(hands) == 0:
        return 0
    return int(np.minimum(hands, hand).sum(axis=1).max())
