"""Sphinx configuration of playtest's documentation site (`make docs`).

The pages are Markdown (MyST), the notebooks of ``analyses/notebooks`` are rendered by MyST-NB as they are
stored (without outputs: executing them takes minutes, see ``make notebooks``), the command-line
reference comes from click (sphinx-click) and the Python API from the numpydoc docstrings (autodoc and
numpydoc). ``make test`` builds the site with ``-W``: a broken reference, a page missing from the
table of contents or any other warning fails the build.
"""

import shutil
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
NOTEBOOKS = ROOT / "analyses" / "notebooks"
NOTEBOOK_PAGES = DOCS / "notebooks"

project = "playtest"
author = "the playtest authors"
copyright = "the playtest authors"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "numpydoc",
    "sphinx_click",
]

exclude_patterns = ["_build", "examples", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
root_doc = "index"

# MyST: `$ playtest ...` blocks stay as written; headings get anchors so pages can link to sections.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]
# Rendered as stored: executing the notebooks is `make notebooks`' work (minutes), not the site's.
nb_execution_mode = "off"

# Docstrings use ``double backticks`` for code; a single-backtick name reads as code too.
default_role = "code"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "undoc-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

html_theme = "pydata_sphinx_theme"
html_title = "playtest"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_static_path = []
html_show_sourcelink = False


def copy_notebooks(_app, _config):
    """Copy the notebooks of ``analyses/notebooks`` into ``docs/notebooks/`` (ignored by git) for MyST-NB.

    A notebook is copied only when it changed, so an unchanged notebook is not rebuilt.
    """
    NOTEBOOK_PAGES.mkdir(exist_ok=True)
    for source in sorted(NOTEBOOKS.glob("*.ipynb")):
        target = NOTEBOOK_PAGES / source.name
        if not target.exists() or target.read_bytes() != source.read_bytes():
            shutil.copyfile(source, target)


def load_lazy_commands(_app, _config):
    """Register the commands ``playtest`` imports only when used, so that sphinx-click documents every command.

    sphinx-click lists a group's ``commands``; ``playtest.cli.PlaytestGroup`` keeps the slower ones in ``lazy``
    and imports them on first use (``get_command``). In the documentation build they are all loaded.
    """
    from playtest.cli import cli

    for name in cli.lazy:
        cli.add_command(cli.get_command(None, name), name)


def setup(app):
    app.connect("config-inited", copy_notebooks)
    app.connect("config-inited", load_lazy_commands)
