"""An atomic counter for jit-compiled code: the threads of the batch kernel hand out work among themselves.

Shares fixed before the threads start would leave one of them waiting
whenever another thread of the process (the writer of the previous chunk)
takes a core and the kernel thread on it falls behind. With a shared
counter each thread takes the next unplayed block when it is free.
"""

from numba.core import types
from numba.extending import intrinsic


@intrinsic
def fetch_add(typingctx, counter, increment):
    """Add ``increment`` to ``counter[0]`` atomically and return the value it had before.

    ``counter`` is a one-element int64 array shared by the threads that
    play one batch (``simulator.core.kernels.BatchKernel``). Usable only in
    jit-compiled code; sequentially consistent. numba does not know that the
    call writes ``counter``: read the counter through ``fetch_add`` only (a
    plain ``counter[0]`` after a loop may be compiled as the value stored
    before it).
    """
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64 and counter.ndim == 1):
        return None
    sig = types.int64(counter, types.int64)

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        return builder.atomic_rmw("add", data, args[1], "seq_cst")

    return sig, codegen
