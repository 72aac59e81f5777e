"""Strategies compiled apart from the engine: a kernel calls them through a table of function addresses.

A kernel that calls a strategy directly compiles (and inlines) it into its
own machine code, so a new or edited strategy file used to recompile the
whole engine (many seconds for a large one). Instead, the kernels over user
strategies are compiled once per game and version of the sources (cached
like the built-in ones) against a table of ``SLOTS`` function addresses:
strategy ``BUILTINS + k`` is the function whose address is in slot ``k``.
A user's ``decide`` is compiled alone, for the game's decision signature
returning an ``int64``, and its address written into the table before the
kernels run (``fill``).

The table is a block of memory of this process exported to LLVM as a
symbol (``llvmlite.binding.add_symbol``); the compiled kernel refers to the
symbol by name, so machine code cached by another process finds this
process's table when it is loaded. The call goes through numba's own calling
convention (the address is the compiled function itself, not a C wrapper), so
an exception a strategy raises reaches the kernel's ``try`` as from any
jitted callee. One table per game: kernels of the same game bound to two
sets of user files in one process take turns, each filling the table before
it runs (``simulator.core.kernels.Slotted``).
"""

import ctypes
import functools
import re

from llvmlite import binding, ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

SLOTS = 64  # user strategies per game and process


@functools.cache
def table(game):
    """The slot table of ``game``: ``SLOTS`` addresses, exported as the symbol ``symbol(game)``."""
    slots = (ctypes.c_void_p * SLOTS)()
    binding.add_symbol(symbol(game), ctypes.addressof(slots))
    return slots


def symbol(game):
    """The name of ``game``'s slot table in compiled code."""
    return "playtest_strategy_slots_" + re.sub(r"\W", "_", game)


@functools.cache
def caller(game, arg_types):
    """An intrinsic ``call_slot(k, *decision_args)``: the int64 returned by the function in slot ``k`` of
    ``game``'s table, called with ``decision_args`` cast to ``arg_types`` (the game's decision signature, the
    two last being the parameter row and the random stream)."""
    name = symbol(game)
    arg_types = tuple(arg_types)
    table(game)  # the symbol exists before any code using it is compiled or loaded

    def typer(typingctx, *args):
        def codegen(context, builder, signature, values):
            module = builder.module
            pointer = ir.IntType(8).as_pointer()
            slots = module.globals.get(name) or ir.GlobalVariable(module, ir.ArrayType(pointer, SLOTS), name)
            address = builder.load(builder.gep(slots, [ir.Constant(ir.IntType(32), 0), values[0]]))
            fnty = context.call_conv.get_function_type(types.int64, arg_types).as_pointer()
            status, result = context.call_conv.call_function(builder, builder.bitcast(address, fnty), types.int64,
                                                             arg_types, values[1:])
            with cgutils.if_unlikely(builder, status.is_error):
                context.call_conv.return_status_propagate(builder, status)
            return result

        return types.int64(types.int64, *arg_types), codegen

    # numba reads an intrinsic's arguments from its signature: spelled out, one per decision argument
    names = ", ".join(f"a{i}" for i in range(len(arg_types)))
    scope = {"typer": typer}
    exec(f"def call_slot(typingctx, slot, {names}):\n    return typer(typingctx, slot, {names})", scope)
    call_slot = intrinsic(scope["call_slot"])
    return call_slot


def address(dispatcher, arg_types):
    """The address of ``dispatcher``'s machine code compiled for ``arg_types``; it must return int64, which the
    slot's callers read."""
    result = dispatcher.overloads[tuple(arg_types)]
    if result.signature.return_type != types.int64:
        raise TypeError(f"{dispatcher.__name__} returns {result.signature.return_type}, not int64")
    return result.library.get_pointer_to_function(result.fndesc.llvm_func_name)


def fill(game, addresses):
    """Write ``addresses`` (one per user strategy, in id order) into ``game``'s slot table."""
    slots = table(game)
    for k, a in enumerate(addresses):
        slots[k] = a
