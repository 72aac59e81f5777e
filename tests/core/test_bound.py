"""A template module declares the names it is bound with (``simulator.core.bound``): the compiled template
reads the bound ones, a template run unbound says which name it misses, and no template module outside the
kernels needs ``noqa: F821`` to pass the linter."""

from pathlib import Path

import numba as nb
import pytest

from simulator.core.bound import Unbound, unbound
from simulator.core.kernels import bind

ROOT = Path(__file__).parents[2]
double, offset = unbound("double", "offset")


def twice_plus(x):
    """Template: ``double(x) + offset``."""
    return double(x) + offset


@nb.njit(cache=False)
def times_two(x):
    return 2 * x


def test_the_compiled_template_reads_the_bound_names_not_the_declarations():
    compiled = bind(twice_plus, cache=False, parallel=False, double=times_two, offset=5)
    assert compiled(4) == 13
    assert isinstance(double, Unbound) and isinstance(offset, Unbound)  # the module's own names are unchanged


def test_a_template_run_unbound_names_the_missing_name():
    with pytest.raises(TypeError, match="'double' is bound when its template is compiled"):
        twice_plus(4)


def test_one_name_is_declared_alone():
    decide = unbound("decide")
    assert repr(decide) == "Unbound('decide')"


def test_no_template_module_silences_undefined_names():
    silenced = [str(p.relative_to(ROOT)) for folder in ("simulator", "strategies", "studies")
                for p in sorted((ROOT / folder).rglob("*.py"))
                if "noqa: F821" in p.read_text()]
    assert silenced == []
