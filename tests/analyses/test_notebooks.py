"""The worked studies in analyses/notebooks run top to bottom on small runs."""

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[2] / "analyses" / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS


def conclusion_cells(notebook):
    """The code cells after the notebook's "## Conclusion" heading."""
    heads = [i for i, c in enumerate(notebook.cells)
             if c.cell_type == "markdown" and c.source.lstrip().startswith("## Conclusion")]
    assert heads, "the notebook states no conclusion"
    return [c for c in notebook.cells[heads[-1]:] if c.cell_type == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_ends_with_a_conclusion(path):
    notebook = nbformat.read(path, as_version=4)
    assert conclusion_cells(notebook), "the conclusion is not written from the measured numbers"
    assert notebook.cells[-1].cell_type == "markdown"  # the last word is prose for the reader


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_cell_has_an_id(path):
    """nbformat 4.5 notebooks need cell ids: nbformat warns about a missing one today and will refuse it later."""
    cells = json.loads(path.read_text())["cells"]
    assert [i for i, cell in enumerate(cells) if "id" not in cell] == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("PLAYTEST_NOTEBOOK_GAMES", "1500")
    monkeypatch.setenv("PLAYTEST_NOTEBOOK_OUT", str(tmp_path / "runs"))
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=2400, kernel_name="python3",
                   resources={"metadata": {"path": str(tmp_path)}}).execute()
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "the study drew no figure"
    written = [o for cell in conclusion_cells(notebook) for o in cell.outputs if "text/markdown" in o.get("data", {})]
    assert written, "the conclusion cell wrote nothing"
