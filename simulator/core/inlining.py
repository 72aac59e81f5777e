"""Whether the engines' verbs are inlined into the kernels that call them (the default) or called.

numba inlines a function decorated with ``inline="always"`` into each of
its callers in numba's own IR, before LLVM sees the code. For an engine's
verbs (``reset``, ``legal_actions``, ``move_key``, ``observe``, ``apply``,
``standing``, ``result``, ``copy_state``, ``determinize``) that is what
makes the game loop, the search and the learned player fast, and what makes
them slow to compile: every call site compiles its own copy. Called, the
search kernels compile in well under half the time and every player plays
more slowly (the figures are in the benchmark journal, bench/journal/).

``PLAYTEST_INLINE=never`` in the environment compiles the verbs as calls:
for work that is mostly compiling, as the test suite is (tests/conftest.py
sets it). Anything else, or nothing, inlines them. The numba cache folder
is per setting (``simulator.core.compile_cache``), so the two never mix.
"""

import os

ENV = "PLAYTEST_INLINE"
VERBS = "never" if os.environ.get(ENV) == "never" else "always"  # the ``inline`` option of the engines' verbs
