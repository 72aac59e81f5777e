"""The numba cache folder follows every source of the engines and strategies (``simulator.core.compile_cache``)."""

import os
import subprocess
import sys
import time

from numba.core import config

from simulator.core import compile_cache


def _tree(root, layout_text):
    for package in compile_cache.PACKAGES:
        (root / package / "game").mkdir(parents=True)
        (root / package / "__init__.py").write_text("")
    (root / "simulator" / "game" / "layout.py").write_text(layout_text)
    (root / "simulator" / "game" / "engine.py").write_text("from simulator.game.layout import HEAD\n")
    return root


def test_a_changed_constant_in_another_file_gives_another_folder(tmp_path):
    a = compile_cache.fingerprint(_tree(tmp_path / "a", "HEAD = 4\n"))
    b = compile_cache.fingerprint(_tree(tmp_path / "b", "HEAD = 5\n"))   # engine.py itself is unchanged
    again = compile_cache.fingerprint(_tree(tmp_path / "c", "HEAD = 4\n"))
    assert a != b
    assert a == again


def test_a_new_file_gives_another_folder(tmp_path):
    root = _tree(tmp_path / "a", "HEAD = 4\n")
    before = compile_cache.fingerprint(root)
    (root / "strategies" / "game" / "heuristic.py").write_text("")
    assert compile_cache.fingerprint(root) != before


def test_prune_deletes_only_other_folders_unused_for_long(tmp_path):
    old, recent, mine = (tmp_path / name for name in ("old", "recent", "mine"))
    for folder in (old, recent, mine):
        folder.mkdir()
    long_ago = time.time() - (compile_cache.KEEP_DAYS + 1) * 86400
    os.utime(old, (long_ago, long_ago))
    os.utime(mine, (long_ago, long_ago))
    compile_cache.prune(tmp_path, "mine")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "recent"]


def test_this_process_caches_in_the_folder_of_its_sources():
    folder = compile_cache.use()
    assert folder is not None
    assert folder.name.startswith(compile_cache.fingerprint())
    assert config.CACHE_DIR == str(folder)


def test_inlined_and_called_verbs_are_cached_in_two_folders(tmp_path):
    ask = "from simulator.core import compile_cache; print(compile_cache.use().name)"
    names = {}
    for setting in ("always", "never"):
        env = {**os.environ, "PLAYTEST_CACHE_DIR": str(tmp_path), "PLAYTEST_INLINE": setting}
        names[setting] = subprocess.run([sys.executable, "-c", ask], env=env, capture_output=True, text=True,
                                        check=True, timeout=120).stdout.strip()
    assert names["always"] == compile_cache.fingerprint()
    assert names["never"] == compile_cache.fingerprint() + "-calls"
    assert sorted(p.name for p in (tmp_path / "numba").iterdir()) == sorted(names.values())


def test_playtest_cache_dir_moves_numba_cache_and_nothing_else_is_read(tmp_path):
    ask = "from numba.core import config; from simulator.core import compile_cache; print(config.CACHE_DIR)"
    env = {**os.environ, "PLAYTEST_CACHE_DIR": str(tmp_path / "mine"), "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    folder = subprocess.run([sys.executable, "-c", ask], env=env, capture_output=True, text=True, check=True,
                            timeout=120).stdout.strip()
    assert folder.startswith(str(tmp_path / "mine" / "numba") + os.sep)
    assert not (tmp_path / "numba").exists()
