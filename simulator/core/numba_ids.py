"""Process-unique ids for numba's compiled functions, so machine code cached by different processes never mixes.

numba names each function it compiles after its qualified name and a
counter of the process (``FunctionIdentity._unique_ids``, from 1). Machine
code loaded from a cache keeps the names given by the process that compiled
it, and LLVM merges functions of one name. Two kernels built from the same
template but bound to different strategy dispatchers (the built-in kernels
and those of a user's strategy file, say), compiled by two processes whose
counters happened to agree, then call into each other's bodies once both
are loaded into one process: a seat plays another strategy, or an illegal
choice (numba/numba#10486, open in numba 0.68; seen in the test suite as a
user strategy's "illegal choice"). Here every process, and every child it
forks, starts the counter at its own random 62-bit offset: ids stay distinct
within a process, and two processes that each create ``n`` of them share one
with a chance of about ``2 * n / 2**62``.
"""

import itertools
import os
import secrets

from numba.core import bytecode


def reseed():
    """Start numba's function-id counter of this process at a fresh random offset."""
    bytecode.FunctionIdentity._unique_ids = itertools.count(secrets.randbits(62) + 1)


reseed()
os.register_at_fork(after_in_child=reseed)
