"""Former names of API functions, kept for one release."""

import warnings


def _deprecated(old, new):
    """``new`` under its former name ``old``, for one release: each call warns (``DeprecationWarning``)."""
    def alias(*args, **kwargs):
        warnings.warn(f"playtest.api.{old} is deprecated and will be removed; use playtest.api.{new.__name__}",
                      DeprecationWarning, stacklevel=2)
        return new(*args, **kwargs)
    alias.__name__ = alias.__qualname__ = old
    alias.__doc__ = f"Deprecated: the former name of ``{new.__name__}`` (same arguments); it warns when called."
    return alias
