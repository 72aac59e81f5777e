"""Directories playtest owns: runs, sweeps and tournaments.

Each kind of directory has a ``Layout``: the names playtest writes into it.
``--force`` replaces a directory only when everything in it matches its
layout (it then removes exactly those entries), so a user's own file is
never deleted: a directory holding anything else is refused, with the name
of what is in the way. ``claim`` is the one entry point for commands that
write a directory tree (``simulate``, ``sweep``, ``tournament``).
"""

import fnmatch
import shutil
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


class RunError(RuntimeError):
    """A run that cannot start or cannot go on; the message says why and what to do."""


@dataclass(frozen=True)
class Layout:
    """What playtest writes into one kind of directory.

    ``files`` and ``trees`` are glob patterns of the files, and of the folders
    written whole (e.g. a report's data folder), directly inside it;
    ``folders`` pairs a glob pattern of sub-folders with their own layout.
    """

    kind: str
    files: tuple = ()
    trees: tuple = ()
    folders: tuple = ()

    def folder_layout(self, name):
        return next((layout for pattern, layout in self.folders if fnmatch.fnmatchcase(name, pattern)), None)


SEATS = Layout("seats", files=("part-[0-9]*.parquet", "part-[0-9]*.parquet.tmp"))
REPORT = ("report.html", "report.md")  # `playtest report DIR --out DIR/report.html` (as `make run` does)
RUN = Layout("run", files=("manifest.json", "manifest.json.tmp", *REPORT), trees=("report-data",),
             folders=(("seats", SEATS),))
SWEEP = Layout("sweep", files=("sweep.json", "summary.csv", *REPORT), trees=("report-data",),
               folders=(("runs", Layout("sweep runs", folders=(("c[0-9]*", RUN),))),))
TOURNAMENT = Layout("tournament", files=("tournament.json", *REPORT), trees=("report-data",),
                    folders=(("[0-9][0-9]-*", RUN),))
SURVEY = Layout("survey", files=("survey.json", "summary.csv", *REPORT), trees=("report-data",),
                folders=(("runs", Layout("survey runs", folders=(("p[0-9]*", RUN),))),))
CARDS = Layout("cards", files=("cards.json", *REPORT), trees=("report-data",),
               folders=(("runs", Layout("cards runs", folders=(("base", RUN), ("c[0-9]*", RUN)))),))


def foreign(path, layout):
    """The entries under ``path`` that ``layout`` does not account for (symbolic links always count)."""
    strangers = []
    for entry in sorted(Path(path).iterdir()):
        if entry.is_symlink():
            strangers.append(entry)
        elif entry.is_dir():
            if any(fnmatch.fnmatchcase(entry.name, p) for p in layout.trees):
                continue
            sub = layout.folder_layout(entry.name)
            if sub is None:
                strangers.append(entry)
            else:
                strangers.extend(foreign(entry, sub))
        elif not any(fnmatch.fnmatchcase(entry.name, p) for p in layout.files):
            strangers.append(entry)
    return strangers


def remove_owned(path, layout):
    """Delete what ``layout`` accounts for under ``path`` (and the folders left empty); keep anything else."""
    path = Path(path)
    for entry in sorted(path.iterdir()):
        if entry.is_symlink():
            continue
        if entry.is_dir():
            if any(fnmatch.fnmatchcase(entry.name, p) for p in layout.trees):
                shutil.rmtree(entry)
            elif (sub := layout.folder_layout(entry.name)) is not None:
                remove_owned(entry, sub)
                _remove_if_empty(entry)
        elif any(fnmatch.fnmatchcase(entry.name, p) for p in layout.files):
            entry.unlink()


def _remove_if_empty(path):
    try:
        path.rmdir()
    except OSError:
        pass


def refuse_foreign(path, layout, doing):
    """Raise ``RunError`` when ``path`` holds anything its layout does not account for."""
    strangers = foreign(path, layout)
    if strangers:
        shown = ", ".join(str(s.relative_to(path)) for s in strangers[:3])
        more = f" and {len(strangers) - 3} more" if len(strangers) > 3 else ""
        raise RunError(f"refusing to {doing} {path}: it holds {shown}{more}, which playtest did not write "
                       f"there; move {'it' if len(strangers) == 1 else 'them'} away or choose another directory")


def clear(path, layout, *, force, hint):
    """Make ``path`` ready for a new directory of ``layout``: absent, empty, or (with ``force``) emptied.

    Without ``force`` an existing non-empty directory is refused with
    ``hint`` (the options that command has, e.g. "use --force to replace
    it"); with ``force`` only a directory holding nothing but what playtest
    writes there is emptied. Nothing is deleted when the call raises.
    Returns True when the directory already existed.
    """
    path = Path(path)
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        raise RunError(f"output directory {path} is a file, not a directory")
    if not path.exists():
        return False
    if any(path.iterdir()):
        if not force:
            raise RunError(f"{layout.kind} directory {path} already exists; {hint}")
        refuse_foreign(path, layout, "replace")
        remove_owned(path, layout)
    return True


def make(path):
    """Create a directory (and its parents); a failure is a one-line ``RunError``."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RunError(f"cannot create output directory {path}: {exc.strerror or exc}") from None


@contextmanager
def claim(path, layout, *, force):
    """Own ``path`` for a command that writes a tree of runs (a sweep, a tournament).

    Refuses or empties an existing directory like ``clear`` (the hint names
    ``--force``), creates it, and when the body fails with an exception
    removes what it wrote into a directory this call created, so a refused
    command leaves nothing behind.
    """
    existed = clear(path, layout, force=force, hint="use --force to replace it")
    make(path)
    try:
        yield Path(path)
    except Exception:
        if not existed:
            remove_owned(path, layout)
            _remove_if_empty(Path(path))
        raise


def free_bytes(path):
    """Free space on the filesystem that would hold ``path`` (its nearest existing parent)."""
    path = Path(path).absolute()
    while not path.exists():
        path = path.parent
    return shutil.disk_usage(path).free
