"""A game's state declared once, as a list of named slots; its allocation and its copy come from that list.

An engine's state is a tuple of numpy arrays (``simulator.core.state``).
The game's layout declares it slot by slot, and each declaration returns
the slot's position, which is the slot's constant::

    STATE = Slots(N_HEAD, "cards", "players", "params")  # the head's length, the sizes
    ST_DECK = STATE.slot(np.int64, "cards")
    ST_HAND = STATE.slot(np.int64, ("players", HAND_MAX))
    GAME_SLOTS = STATE.end_of_game()                     # the rest are per-thread buffers
    ST_OBS = STATE.slot(np.int64, OBS_SIZE)

The first two slots are the ones every game has (``ST_HEAD``, ``ST_RNGS`` of
``simulator.core.state``): the int64 head and the random streams
``uint64[players + 1, 4]``; ``Slots`` declares them itself. A shape is an
int, a size name, or a tuple of them; a size may also be an expression over
the size names (``"players + 1"``). ``STATE.allocator()``
and ``STATE.copier()`` then return jit-compiled functions generated from
the declaration: ``allocate(cards, players, params)`` returns the tuple of
arrays (filled with each slot's ``fill``, zero unless said), and
``copy(src, dst)`` copies the game slots (those declared before
``end_of_game``) element by element, as a loop that needs no temporary (the
game loop is compiled without reference counting). The engine's
``new_state`` and ``copy_state`` call them, so a slot is added, resized or
moved in one line.

The generated functions are not cached on their own: they are compiled into
their cached callers (numba links a callee's machine code into the caller),
and the callers' cache folder is keyed by the sources of ``simulator``, the
declaration included (``simulator.core.compile_cache``).

Prefixes, the same in every game: ``ST_`` a state slot, ``HD_`` a game's
head field (after the common ``H_*`` of ``simulator.core.state``), ``SC_`` a
seat column of the output, ``GC_`` a game column, ``TR_`` a trace event,
``OBS_`` an observation field, ``OPT_`` an option column, ``R_`` an entry of
the compiled rules vector.
"""

import numba as nb
import numpy as np

from simulator.core.state import copy_1d, copy_2d


class Slots:
    """The ordered slots of one game's state tuple.

    Parameters
    ----------
    head : int
        The head's length (``simulator.core.state.HEAD`` plus the game's own head fields).
    *sizes : str
        Names of the sizes the allocator takes, in its argument order; ``players`` is one of them.
    """

    def __init__(self, head, *sizes):
        if "players" not in sizes:
            raise ValueError("a state's sizes name 'players' (the random streams are one per seat and chance)")
        self.sizes = sizes
        self.slots = []
        self.game_slots = None
        self.slot(np.int64, head)                   # ST_HEAD
        self.slot(np.uint64, ("players + 1", 4))    # ST_RNGS

    def slot(self, dtype, shape, fill=0):
        """Declare the next slot: an array of ``dtype`` and ``shape`` (ints, size names or expressions over
        them), filled with ``fill`` when allocated; return its position in the state tuple."""
        shape = shape if isinstance(shape, tuple) else (shape,)
        self.slots.append((np.dtype(dtype).name, tuple(str(s) for s in shape), fill))
        return len(self.slots) - 1

    def end_of_game(self):
        """Mark the slots declared so far as the game (what ``copy`` copies); return their number."""
        self.game_slots = len(self.slots)
        return self.game_slots

    def allocator(self):
        """The jit-compiled ``allocate(*sizes)`` returning a fresh state tuple of the declared slots."""
        entries = []
        for dtype, shape, fill in self.slots:
            dims = ", ".join(shape) + ("," if len(shape) == 1 else "")
            if fill == 0:
                entries.append(f"np.zeros(({dims}), np.{dtype})")
            else:
                entries.append(f"np.full(({dims}), {fill!r}, np.{dtype})")
        source = (f"def allocate({', '.join(self.sizes)}):\n"
                  f"    return ({', '.join(entries)},)\n")
        return nb.njit(_compile(source, "allocate", {"np": np}))

    def copier(self):
        """The jit-compiled ``copy(src, dst)`` copying the game slots of ``src`` into ``dst``, in place."""
        if self.game_slots is None:
            raise ValueError("the declaration has no end_of_game(): which slots are the game is not said")
        lines = ["def copy(src, dst):"]
        for k, (_, shape, _) in enumerate(self.slots[:self.game_slots]):
            if len(shape) > 2:
                raise ValueError(f"slot {k} has {len(shape)} dimensions: a game slot has one or two")
            lines.append(f"    copy_{len(shape)}d(dst[{k}], src[{k}])")
        scope = {"copy_1d": copy_1d, "copy_2d": copy_2d}
        return nb.njit(_nrt=False, inline="always")(_compile("\n".join(lines) + "\n", "copy", scope))


def _compile(source, name, scope):
    """The Python function ``name`` defined by ``source`` with the globals ``scope``."""
    namespace = dict(scope)
    exec(compile(source, f"<slots {name}>", "exec"), namespace)  # noqa: S102 (source generated above)
    return namespace[name]
