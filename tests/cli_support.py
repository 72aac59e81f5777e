"""What the command-line tests share: run `playtest` in-process, snapshot a folder, check a refusal."""

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
