"""What the command-line tests share: run `playtest` in-process, snapshot a folder, check a refusal."""

import pytest
from click.testing import CliRunner

from playtest.cli import cli


def invoke(*args):
    """Run ``playtest ARGS...`` in-process (arguments turned to strings); returns click's ``Result``."""
    return CliRunner().invoke(cli, [str(a) for a in args])


def tree(path):
    """Every file under ``path`` with its bytes: what a refused command must leave untouched."""
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()}


def assert_refused(result, *words):
    """A refusal: exit code 2, one line starting ``error:`` and containing each of ``words``, no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    assert "Traceback" not in result.output
    for word in words:
        assert word in lines[0], lines[0]


def leaves(x, path=""):
    """``{path: value}`` of every number or text in nested lists and dicts."""
    if isinstance(x, dict):
        return {k: v for key, value in x.items() for k, v in leaves(value, f"{path}.{key}").items()}
    if isinstance(x, list):
        return {k: v for i, value in enumerate(x) for k, v in leaves(value, f"{path}[{i}]").items()}
    return {path: x}


def same_figures(a, b):
    """The same JSON up to the last bits of a float (polars sums in parallel, in no fixed order)."""
    a, b = leaves(a), leaves(b)
    assert a.keys() == b.keys()
    for key in a:
        assert a[key] == (pytest.approx(b[key], rel=1e-12, nan_ok=True) if isinstance(b[key], float) else b[key]), key
