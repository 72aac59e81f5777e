"""Model files and what they were trained for: a ``.npy`` model with a JSON sidecar.

``playtest train --out FILE.npy`` writes the model vector to ``FILE.npy``
(what ``--param learned=@FILE.npy`` plays, unchanged) and its provenance to
``FILE.json`` beside it::

    {"game": ..., "players": ..., "variant": ..., "setup_digest": ..., "command": ...}

``setup_digest`` is ``table_digest`` of the merged setup table the model was
trained on. The shipped models (``strategies/<game>/learned.npy``, and
``expert.npy`` where a game ships ``expert`` a model of its own) have
sidecars too. A model is recognised by the digest of its numbers
(``model_digest``), so a run's manifest can name the table each model it
plays was trained for (``provenance``) and a verdict can say when a model
plays a table or player count it was not trained on (``mismatches``).
"""

import hashlib
import json
from pathlib import Path

import numpy as np

from simulator.core.learned import M_FEATURES, M_HIDDEN, M_KIND, model_size
from simulator.core.search import P_ROLLOUT, P_ROLLOUT_PARAMS

SIDECAR = ".json"
_READ = {}   # model digest -> provenance of every model file read in this process (``read``)


def table_digest(setup):
    """A short digest of a merged setup table (a dict): equal tables, equal digests."""
    return hashlib.blake2b(json.dumps(setup, sort_keys=True, default=str).encode(), digest_size=8).hexdigest()


def model_digest(vector):
    """A short digest of a model's numbers."""
    return hashlib.blake2b(np.asarray(vector, np.float64).tobytes(), digest_size=8).hexdigest()


def sidecar(path):
    """The provenance file beside the model file ``path``."""
    return Path(path).with_suffix(SIDECAR)


def save(path, model, provenance):
    """Write ``model`` to ``path`` (``.npy``) and ``provenance`` (a dict) to its sidecar."""
    np.save(path, np.asarray(model, np.float64))
    sidecar(path).write_text(json.dumps(provenance, indent=1, sort_keys=True) + "\n")


def read(path):
    """The numbers of the model file ``path`` (``.npy``, as ``np.load``); its sidecar, if any, is remembered so
    that ``provenance`` knows the model. Raises what ``np.load`` raises."""
    values = np.load(path, allow_pickle=False)
    info = sidecar(path)
    if info.exists() and values.ndim == 1:
        try:
            _READ[model_digest(values.astype(np.float64))] = json.loads(info.read_text())
        except ValueError:
            pass   # a sidecar that is not JSON names nothing: the model plays without provenance
    return values


def shipped(model_path):
    """Digest -> provenance of the shipped models beside ``model_path`` (every ``.npy`` with a sidecar in its
    folder: ``learned``'s model and ``expert``'s when the game ships one)."""
    return {model_digest(np.load(npy).astype(np.float64)): json.loads(sidecar(npy).read_text())
            for npy in sorted(Path(model_path).parent.glob("*.npy")) if sidecar(npy).exists()}


def seat_model(row, learned_sid, sid):
    """The model a seat's parameter ``row`` plays (``learned``: the row; a search seat whose rollout is
    ``learned``: the numbers after the horizon), trimmed to its length; None for any other seat."""
    row = np.asarray(row, np.float64)
    start = 0 if sid == learned_sid else P_ROLLOUT_PARAMS
    if sid != learned_sid and (row.size <= start or row[P_ROLLOUT] != learned_sid):
        return None
    head = row[start:start + M_HIDDEN + 1]
    if head.size < 3 or head[M_KIND] not in (0, 1, 2):
        return None
    return row[start:start + model_size(int(head[M_KIND]), int(head[M_FEATURES]), int(head[M_HIDDEN]))]


def provenance(names, sids, params, learned_sid, model_path):
    """``[{strategy, game, players, variant, setup_digest, command}]``: what each seated model (one entry per
    strategy name) was trained for, as far as its sidecar (a shipped model's, or one ``read`` here) says."""
    known = {**shipped(model_path), **_READ}
    out, seen = [], set()
    for name, sid, row in zip(names, sids, params):
        model = seat_model(row, learned_sid, int(sid))
        if name in seen or model is None:
            continue
        seen.add(name)
        info = known.get(model_digest(model))
        if info is not None:
            out.append({"strategy": name, **info})
    return out


def mismatches(models, game, players, variant, setup):
    """One sentence per entry of ``models`` (``provenance``) trained for another game, variant, setup table or
    player count than this run's."""
    out = []
    digest = table_digest(setup)
    for m in models:
        other = []
        if m.get("game") != game:
            other.append(f"the game {m.get('game')}")
        if m.get("players") != players:
            other.append(f"{m.get('players')} players")
        if m.get("variant", "standard") != variant:
            other.append(f"the {m.get('variant')} variant")
        if m.get("setup_digest") != digest:
            other.append("another setup table")
        if other:
            out.append(f"how `{m['strategy']}` would play with a model trained for this table (its model was "
                       f"trained for {', '.join(other)}; `playtest train --setup --players` fits one)")
    return out
