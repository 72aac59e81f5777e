"""Names a template is bound with when it is compiled, declared in the template's own module.

A template (a plain Python function that ``simulator.core.kernels.bind``
compiles) calls names it does not import: the engine's verbs, a strategy
dispatcher, constants of the game. ``bind`` compiles the template's code
against a copy of the module's globals updated with the names it is given,
so what the module itself binds to those names never reaches the compiled
code. The module declares each of them with ``unbound`` instead: a linter
then sees every name the template reads, and a template run unbound (as
plain Python, or compiled without one of its names) fails with a message
naming it.
"""

__all__ = ["Unbound", "unbound"]


class Unbound:
    """Stands for a name ``bind`` replaces when it compiles a template; calling it says the name was not bound."""

    def __init__(self, name):
        self.name = name

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.name!r} is bound when its template is compiled (simulator.core.kernels.bind), "
                        f"and this template was not")

    def __repr__(self):
        return f"Unbound({self.name!r})"


def unbound(*names):
    """One ``Unbound`` per name, in order (``decide, choose = unbound("decide", "choose")``); for one name, that
    ``Unbound`` alone (``decide = unbound("decide")``)."""
    found = tuple(Unbound(name) for name in names)
    return found[0] if len(found) == 1 else found
