"""Compiled kernels run off the main thread, so Ctrl-C and SIGTERM are seen while they run.

Python runs signal handlers in the main thread only, between bytecodes: a
long kernel call, or a strategy that never returns, on the main thread would
hold them off for as long as it runs. The kernels are compiled with
``nogil=True`` and called from a worker thread here, while the main thread
waits in short steps and so stays interruptible. A worker that is still
inside a kernel when its caller is interrupted cannot be stopped from
Python; ``still_running`` tells the command line to end the process with
``os._exit`` once it has cleaned up.
"""

import queue
import threading

POLL = 0.05    # seconds between checks of the main thread while it waits
GRACE = 1.0    # seconds an interrupted worker gets to finish its kernel slice

_abandoned = []  # for each worker left inside a kernel after an interruption: a callable, True while it runs


def call(fn, *args):
    """Return ``fn(*args)`` computed on a worker thread; an interruption of the wait propagates at once."""
    box = {}
    done = threading.Event()

    def work():
        try:
            box["value"] = fn(*args)
        except BaseException as exc:  # handed to the caller's thread
            box["error"] = exc
        finally:
            done.set()

    threading.Thread(target=work, name="playtest-kernel", daemon=True).start()
    try:
        # an Event, not Thread.join: a join interrupted by Ctrl-C can mark a running thread as stopped (Python 3.11)
        while not done.wait(POLL):
            pass
    except BaseException:
        _abandoned.append(lambda: not done.is_set())
        raise
    if "error" in box:
        raise box["error"]
    return box["value"]


_DONE = object()


def pipeline(produce, items, depth=1):
    """Yield ``(item, produce(item, stop))`` in order, produced ahead on a worker thread.

    At most ``depth`` results wait in the queue, so memory holds ``depth +
    2`` results (one being produced, one being consumed). ``produce``
    should return early (any value) once the ``threading.Event`` ``stop`` is
    set; it is set when the consumer stops (an exception, an interruption,
    or leaving the loop), and the worker then gets ``GRACE`` seconds. An
    exception in ``produce`` is raised here, in the consumer's thread.
    """
    results = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(entry):
        while not stop.is_set():
            try:
                results.put(entry, timeout=POLL)
                return
            except queue.Full:
                continue

    def work():
        try:
            for item in items:
                if stop.is_set():
                    return
                result = produce(item, stop)
                put((item, result, None))
        except BaseException as exc:  # handed to the consumer's thread
            put((None, None, exc))
        put((_DONE, None, None))

    thread = threading.Thread(target=work, name="playtest-kernel", daemon=True)
    thread.start()
    try:
        while True:
            try:
                item, result, error = results.get(timeout=POLL)
            except queue.Empty:
                continue
            if error is not None:
                raise error
            if item is _DONE:
                return
            yield item, result
    finally:
        stop.set()
        thread.join(GRACE)
        if thread.is_alive():
            _abandoned.append(thread.is_alive)


def still_running():
    """True when a worker abandoned after an interruption has not come back from its kernel."""
    return any(running() for running in _abandoned)
