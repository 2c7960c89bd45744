"""Random hand generators of the Nantong tests (counts vectors of 30 kinds)."""
import numpy as np

SEQ_STARTS = [k for k in range(27) if k % 9 <= 6]


def random_complete(rng, melds=7, caps=None, honour_sequence=False, pong_bias=0.5):
    """A random complete concealed hand: 1 pair + ``melds`` melds (counts <= caps)."""
    caps = np.full(30, 4) if caps is None else np.asarray(caps)
    while True:
        c = np.zeros(30, dtype=np.int64)
        ok = True
        for _ in range(melds):
            for _try in range(50):
                if rng.random() < pong_bias:
                    k = int(rng.integers(30))
                    if c[k] + 3 <= caps[k]:
                        c[k] += 3
                        break
                else:
                    starts = SEQ_STARTS + ([27] if honour_sequence else [])
                    k = int(starts[rng.integers(len(starts))])
                    if all(c[k + j] + 1 <= caps[k + j] for j in range(3)):
                        c[k:k + 3] += 1
                        break
            else:
                ok = False
        for _try in range(50):
            k = int(rng.integers(30))
            if c[k] + 2 <= caps[k]:
                c[k] += 2
                break
        else:
            ok = False
        if ok:
            return c.astype(np.uint8)


def random_deal(rng, size, copies=None):
    """Counts of a uniformly random ``size``-card hand from the 120-card deck."""
    deck = np.repeat(np.arange(30), 4)
    pick = rng.choice(deck.size, size, replace=False)
    return np.bincount(deck[pick], minlength=30).astype(np.uint8)


def perturb(rng, c, swaps=1):
    """Exchange ``swaps`` cards of ``c`` for random other cards (counts stay <= 4)."""
    c = c.astype(np.int64).copy()
    for _ in range(swaps):
        out = rng.choice(np.nonzero(c)[0])
        c[out] -= 1
        while True:
            k = int(rng.integers(30))
            if c[k] < 4:
                c[k] += 1
                break
    return c.astype(np.uint8)


def drop_one(rng, c):
    c = c.astype(np.int64).copy()
    out = rng.choice(np.nonzero(c)[0])
    c[out] -= 1
    return c.astype(np.uint8)


def small_search(monkeypatch, scale: float, samples: int = 16, module=None) -> None:
    """Below ``KAPTAI_SLOW_SCALE=1`` the search of the configurations ``module`` builds (default
    ``kaptai.nantong.atlas``: the leagues and reports) deals ``samples`` layouts a decision instead
    of the default, so that a report's skill section costs seconds; at scale 1 it runs at the
    default budget."""
    if scale >= 1:
        return
    import functools

    from kaptai.nantong import atlas
    from kaptai.nantong.config import make_config

    monkeypatch.setattr(atlas if module is None else module, "make_config",
                        functools.partial(make_config, samples=samples))
