"""The Nantong per-suit tables: the cached file a process maps equals a fresh build, byte for
byte, and the cache is written, found, refused and skipped as documented in
:mod:`kaptai.nantong._eval` (issue 30 item 5: ``advise nantong`` no longer builds the tables at
start-up)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest

from kaptai.nantong import _eval

_OUTSIDE = tempfile.gettempdir()  # not the source tree: python -c puts the cwd first on sys.path

_CHILD = """
import json
import numpy as np
from kaptai.nantong import _eval
from kaptai.nantong.evaluate import distance, waits
hand = "123b 234w 678t 333w qzx3 789t 9w bhx3"
r = {"before": _eval.tables_source, "waits": list(waits(hand)), "distance": distance(hand)}
r["source"] = _eval.tables_source
r["path"] = _eval.cache_path()
ew, dc = _eval.tables_in_use()
r["writable"] = bool(ew.flags.writeable)
f_ew, _, _, f_dc = _eval.fresh_suit_tables()
r["equal"] = bool(np.array_equal(ew, f_ew) and np.array_equal(dc, f_dc))
print(json.dumps(r))
"""


def _run(cache: str | None) -> dict:
    env = dict(os.environ)
    env.pop("KAPTAI_CACHE_DIR", None)
    if cache is not None:
        env["KAPTAI_CACHE_DIR"] = cache
    r = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, env=env, cwd=_OUTSIDE,
                       timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def fresh() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    return _eval.fresh_suit_tables()


def _decode(dc: np.ndarray) -> np.ndarray:
    """The 16 distances of each packed profile (as ``suit_profile16`` unpacks them)."""
    x = dc.astype(np.int64)
    d = np.zeros((dc.size, 16), dtype=np.int64)
    for m in range(1, 8):
        d[:, 2 * m] = d[:, 2 * m - 2] + ((x >> (2 * (m - 1))) & 3)
    for m in range(8):
        d[:, 2 * m + 1] = d[:, 2 * m] + ((x >> (14 + 2 * m)) & 3)
    return d


def test_the_packed_profiles_unpack_to_the_distance_table(fresh):
    ew, d, sm, dc = fresh
    assert d.shape == (5**9, 16) and ew.shape == dc.shape == sm.shape == (5**9,)
    assert np.array_equal(_decode(dc), d.astype(np.int64))  # no 255 (impossible) in a 9-rank suit


def test_the_tables_in_use_equal_a_fresh_build(fresh):
    ew, dc = _eval.tables_in_use()
    assert _eval.tables_source in ("cache", "built and cached", "built")
    assert ew.dtype == np.uint16 and dc.dtype == np.uint32
    assert np.array_equal(ew, fresh[0]) and np.array_equal(dc, fresh[3])
    # suit_tables() (the reference engine's and the exact odds' copy, D unpacked from the packed
    # table in use) equals the builder's own EW, D and SUM
    s_ew, s_d, s_sm = _eval.suit_tables()
    assert np.array_equal(s_ew, fresh[0]) and np.array_equal(s_d, fresh[1]) and np.array_equal(s_sm, fresh[2])


def test_a_written_cache_file_maps_back_byte_for_byte(fresh, tmp_path):
    ew, _, _, dc = fresh
    path = str(tmp_path / "nantong-tables-test.bin")
    stale = tmp_path / "nantong-tables-f0-old-build.bin"
    stale.write_bytes(b"x")
    assert _eval.write_cache(path, ew, dc)
    assert not stale.exists()  # the file of another build is removed
    assert [p.name for p in tmp_path.iterdir()] == ["nantong-tables-test.bin"]  # no temporary file left
    got = _eval.load_cached(path)
    assert got is not None
    assert np.array_equal(got[0], ew) and np.array_equal(got[1], dc)
    assert not got[0].flags.writeable
    raw = (tmp_path / "nantong-tables-test.bin").read_bytes()
    assert raw[64:64 + ew.nbytes] == ew.astype("<u2").tobytes()
    assert raw[-dc.nbytes:] == dc.astype("<u4").tobytes()


def test_a_damaged_or_foreign_cache_file_is_ignored(fresh, tmp_path):
    ew, _, _, dc = fresh
    path = tmp_path / "t.bin"
    assert _eval.write_cache(str(path), ew, dc)
    data = path.read_bytes()
    path.write_bytes(data[:-4])  # truncated
    assert _eval.load_cached(str(path)) is None
    path.write_bytes(b"y" + data[1:])  # wrong header
    assert _eval.load_cached(str(path)) is None
    path.write_bytes(b"")
    assert _eval.load_cached(str(path)) is None
    assert _eval.load_cached(str(tmp_path / "missing.bin")) is None


def test_a_process_builds_and_caches_then_the_next_maps_the_file(tmp_path):
    cache = str(tmp_path / "cache")
    first = _run(cache)
    assert first["before"] == "" and first["source"] == "built and cached" and first["equal"]
    assert os.path.dirname(first["path"]) == cache and os.path.isfile(first["path"])
    assert os.listdir(cache) == [os.path.basename(first["path"])]
    second = _run(cache)
    assert second["source"] == "cache" and second["equal"] and not second["writable"]
    assert second["path"] == first["path"]
    assert (second["waits"], second["distance"]) == (first["waits"], first["distance"]) == ([8], 0)
    # a damaged file is rebuilt and replaced
    with open(first["path"], "r+b") as fh:
        fh.truncate(1000)
    third = _run(cache)
    assert third["source"] == "built and cached" and third["equal"]
    assert os.path.getsize(third["path"]) > 11_000_000


def test_no_cache_when_turned_off_or_unwritable(tmp_path):
    off = _run("")
    assert off["source"] == "built" and off["path"] is None and off["equal"] and off["waits"] == [8]
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    unwritable = _run(str(blocker / "cache"))
    assert unwritable["source"] == "built" and unwritable["equal"] and unwritable["distance"] == 0
