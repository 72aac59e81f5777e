"""An atomic counter for jit-compiled code: threads of a ``prange`` loop hand out work among themselves.

numba's parallel loops divide their iterations among the threads in equal
contiguous shares, decided before the loop starts (the OpenMP layer's
static schedule; ``numba.set_parallel_chunksize`` makes the shares smaller
but still assigns them in advance). When another thread of the process
(the writer of the previous chunk) takes a core, the kernel thread on that
core falls behind and the other one finishes its share and waits. With a
shared counter each thread takes the next unplayed block when it is free.
"""

from numba.core import types
from numba.extending import intrinsic


@intrinsic
def fetch_add(typingctx, counter, increment):
    """Add ``increment`` to ``counter[0]`` atomically and return the value it had before.

    ``counter`` is a one-element int64 array shared by the threads of a
    ``prange`` loop. Usable only in jit-compiled code; sequentially
    consistent. numba does not know that the call writes ``counter``: read
    the counter through ``fetch_add`` only. A plain ``counter[0]`` after the
    parallel loop may be compiled as the value stored before it (seen with
    numba 0.68); returning the array itself returns the true count.
    """
    if not (isinstance(counter, types.Array) and counter.dtype == types.int64 and counter.ndim == 1):
        return None
    sig = types.int64(counter, types.int64)

    def codegen(context, builder, signature, args):
        data = context.make_array(signature.args[0])(context, builder, args[0]).data
        return builder.atomic_rmw("add", data, args[1], "seq_cst")

    return sig, codegen
