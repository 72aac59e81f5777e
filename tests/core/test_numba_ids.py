"""numba's function ids differ between processes (``simulator.core.numba_ids``).

Kernels cached by two processes are loaded into one; numba names compiled
functions by a per-process counter, and same-named functions from two caches
are merged by LLVM, so without distinct ids a kernel can call the body of
another kernel's function (numba/numba#10486).
"""

import subprocess
import sys

FIRST_IDS = """
import os, simulator
from numba.core.bytecode import FunctionIdentity
def first():
    return next(FunctionIdentity._unique_ids)
parent = first()
child_read, child_write = os.pipe()
pid = os.fork()
if pid == 0:
    os.write(child_write, str(first()).encode())
    os._exit(0)
os.waitpid(pid, 0)
print(parent, os.read(child_read, 64).decode())
"""


def first_ids():
    out = subprocess.run([sys.executable, "-c", FIRST_IDS], capture_output=True, text=True, check=True).stdout
    return [int(v) for v in out.split()]


def test_every_process_and_forked_child_numbers_its_functions_from_its_own_random_offset():
    a_parent, a_child = first_ids()
    b_parent, b_child = first_ids()
    ids = [a_parent, a_child, b_parent, b_child]
    assert len(set(ids)) == 4, ids
    assert all(i > 2 ** 32 for i in ids), ids  # numba alone counts from 1 in every process
