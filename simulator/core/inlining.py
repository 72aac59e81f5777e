"""Whether the engines' verbs are inlined into the kernels that call them (the default) or called.

numba inlines a function decorated with ``inline="always"`` into each of
its callers in numba's own IR, before LLVM sees the code. For an engine's
verbs (``reset``, ``legal_actions``, ``move_key``, ``observe``, ``apply``,
``standing``, ``result``, ``copy_state``, ``determinize``) that is what
makes the game loop, the search and the learned player fast, and what makes
them slow to compile: every call site compiles its own copy. Measured on
Fair Enough (1 thread, 2 cores, 4 December 2026): the search kernels took
135 s of CPU to compile with the verbs inlined and 53 s with them called,
the plain kernels 34 s and 22 s; called, the heuristics played at 0.84x,
``learned`` at 0.55x and ``mcts`` at 0.58x the inlined speed.

``PLAYTEST_INLINE=never`` in the environment compiles the verbs as calls:
for work that is mostly compiling, as the test suite is (tests/conftest.py
sets it). Anything else, or nothing, inlines them. The numba cache folder
is per setting (``simulator.core.compile_cache``), so the two never mix.
"""

import os

ENV = "PLAYTEST_INLINE"
VERBS = "never" if os.environ.get(ENV) == "never" else "always"  # the ``inline`` option of the engines' verbs
