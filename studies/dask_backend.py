"""Playing a run's chunks on Dask distributed workers (``playtest simulate --backend dask``).

The batch runner (``simulator.core.batch.run_batch``) still owns the run
directory, the manifest and resuming; this module only computes chunk
frames. Each chunk is one task: the run's job (its ``RunOptions`` as the
client built them, see ``describe``) and a chunk number in, the chunk's seat
frame out. Game ``i`` always uses the random streams of ``(seed, i)``, so a
chunk's rows do not depend on which worker plays it, and a chunk lost with
a dying worker is simply played again by Dask.

A worker process rebuilds the run (setup, strategies, compiled kernels) once
per run and keeps it in a module-level cache, so the kernels are compiled (or
loaded from numba's disk cache) once per process, not once per task. User
strategy files travel as text inside the job: the workers need no
shared filesystem.
"""

import dataclasses
import hashlib
import json
import logging
import tempfile
import threading
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numba

from simulator import games as game_registry
from simulator.core.batch import RunError, chunk_bounds, play_chunk_checked
from studies import runs


def installed_version():
    """The installed playtest's version (``0+unknown`` in a source tree that is not installed), as
    ``playtest.__version__``: a client and its workers must run the same."""
    try:
        return version("playtest")
    except PackageNotFoundError:
        return "0+unknown"


# run key -> (spec, kernels, user strategy names); one entry per run a worker process has played
_RUNS = {}
# the folders the strategy files of those runs were written to, kept while the process lives
_FOLDERS = []
# one chunk at a time per worker process: the batch kernel takes every thread it is given
_KERNEL_LOCK = threading.Lock()


def describe(spec):
    """The picklable job a worker needs to play the chunks of run ``spec``: the run's ``RunOptions`` as they
    are, with the text of each strategy file (the workers need no shared filesystem) and the versions the
    worker must match."""
    return {"version": installed_version(), "engine_version": spec.game.engine_version, "options": spec.options,
            "strategy_files": [(Path(f).name, Path(f).read_text()) for f in spec.strategy_files],
            "identity": spec.identity()}


def run_key(job):
    """A digest of a job's run (the cache key on the workers): its manifest identity and the version."""
    return hashlib.sha256(json.dumps([job["version"], job["identity"]], sort_keys=True).encode()).hexdigest()


def prepared(job):
    """``(spec, kernels, user strategy names)`` of a run in this process, built on first use from the job's
    ``RunOptions``, its strategy files written to a folder of this machine."""
    key = run_key(job)
    if key not in _RUNS:
        if job["version"] != installed_version():
            raise RunError(f"a Dask worker runs playtest {installed_version()}, the client "
                           f"{job['version']}: install the same version everywhere")
        options = job["options"]
        g = game_registry.get(options.game)
        if job["engine_version"] != g.engine_version:
            raise RunError(f"a Dask worker has {g.name} engine {g.engine_version}, the client "
                           f"{job['engine_version']}: install the same playtest everywhere")
        files = []
        if job["strategy_files"]:  # removed when the worker process exits (the folder's finalizer)
            _FOLDERS.append(tempfile.TemporaryDirectory(prefix="playtest-strategies-"))
        for i, (name, text) in enumerate(job["strategy_files"]):
            path = Path(_FOLDERS[-1].name) / str(i) / name  # keep the file name: it is the strategy's default NAME
            path.parent.mkdir()
            path.write_text(text)
            files.append(path)
        local = options if not files else dataclasses.replace(options, strategy_files=files)
        spec, sset = runs.prepare(local)
        spec.options = options  # the client's record (its paths): the rows do not depend on where the files are
        _RUNS[key] = (spec, sset.kernels_for(spec.sids), [s.name for s in sset.extra])
    return _RUNS[key]


def play_task(job, chunk, threads=None):
    """The Dask task: the seat frame of chunk number ``chunk`` (``None``: game 0 alone, the start check)."""
    spec, kernels, suspects = prepared(job)
    start, count = (0, 1) if chunk is None else chunk_bounds(spec, chunk)
    with _KERNEL_LOCK:
        numba.set_num_threads(min(threads or numba.config.NUMBA_NUM_THREADS, numba.config.NUMBA_NUM_THREADS))
        return play_chunk_checked(spec, kernels, start, count, suspects)


class DaskChunks:
    """A chunk source for ``run_batch`` that plays chunks on a Dask cluster, as many at once as it has workers.

    Give ``scheduler`` (``tcp://host:port`` of a running ``dask scheduler``)
    or ``workers`` (start a local cluster of that many worker processes).
    ``threads`` caps numba threads per task. Frames come back in completion
    order; at most ``2 x workers`` chunks are in flight so memory stays flat.
    Use it as a context manager: leaving it closes the client (and the local
    cluster).
    """

    def __init__(self, scheduler=None, workers=None, threads=None):
        from dask.distributed import Client, LocalCluster

        if (scheduler is None) == (workers is None):
            raise RunError("the dask backend needs either --scheduler tcp://HOST:PORT or --workers N")
        self.threads, self.cluster = threads, None
        try:
            if scheduler is not None:
                self.client = Client(scheduler, timeout="20s")
            else:
                per_worker = max(1, (numba.config.NUMBA_NUM_THREADS + workers - 1) // workers)
                self.threads = threads or per_worker
                self.cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                            host="127.0.0.1", dashboard_address=":0",
                                            silence_logs=logging.CRITICAL)  # failures reach the client
                self.client = Client(self.cluster)
        except (OSError, TimeoutError, ValueError) as exc:
            if self.cluster is not None:
                self.cluster.close()
            raise RunError(f"cannot reach the Dask scheduler {scheduler or 'of the local cluster'}: {exc}") from None
        self.job = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def check(self, spec):
        """Wait for a worker and play game 0 there (it builds the run) before anything is written."""
        self.job = describe(spec)
        try:
            self.client.wait_for_workers(1, timeout=60)
        except TimeoutError:
            raise RunError(f"no Dask worker joined the scheduler {self.client.scheduler.address} within a minute; "
                           f"start some with `dask worker {self.client.scheduler.address}`") from None
        self.client.submit(play_task, self.job, None, self.threads, pure=False).result()
        return {"backend": "dask", "scheduler": self.client.scheduler.address,
                "dask_workers": len(self.client.scheduler_info()["workers"]), "threads": self.threads}

    def frames(self, spec, chunks):
        """Yield ``(chunk, frame)`` as tasks complete; pending tasks are cancelled if the caller stops.

        When a chunk fails, no new chunk is started, the chunks in flight are
        still yielded (finished chunks are kept), and then the failure of the
        lowest failed chunk is raised.
        """
        from dask.distributed import as_completed

        todo = iter(chunks)
        window = 2 * max(1, len(self.client.scheduler_info()["workers"]))
        inflight = {}  # future -> chunk

        def submit():
            chunk = next(todo, None)
            if chunk is None:
                return []
            future = self.client.submit(play_task, self.job, chunk, self.threads, pure=False)
            inflight[future] = chunk
            return [future]

        # track the futures on this backend's own client loop: as_completed would otherwise take the loop of
        # whichever Client the caller has entered, and a chunk lost with a worker is then awaited on two loops
        pending = as_completed([f for _ in range(window) for f in submit()], loop=self.client.loop)
        failed = {}  # chunk -> exception
        try:
            for future in pending:
                chunk = inflight.pop(future)
                if future.status == "error":
                    failed[chunk] = future.exception()
                    continue
                frame = future.result()
                future.release()
                if not failed:
                    for nxt in submit():
                        pending.add(nxt)
                yield chunk, frame
        finally:
            self.client.cancel(list(inflight))
        if failed:
            # chunks are submitted in order, so every chunk before the first failed one was played:
            # the error is the one the local backend reports
            raise failed[min(failed)]
