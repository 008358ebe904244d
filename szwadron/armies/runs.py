"""Long simulations on an executor, and the statistics of their results (issue 7).

:func:`run_tasks` sends chunks of seeded jobs (duels, army battles) to any
:class:`concurrent.futures.Executor` — by default a process pool with one worker per core; a
``dask.distributed`` client's ``get_executor()`` works unchanged — and gathers the results in
order, so they never depend on the executor or the number of workers. :func:`wilson_interval` and
:data:`BAND` are the validation's statistics.
"""

from __future__ import annotations

import gc
import math
import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import Any, Literal

from szwadron.errors import InvalidDataError
from szwadron.i18n import gettext

#: The 50 ± 5 % band of the validation.
BAND: tuple[float, float] = (0.45, 0.55)
#: Jobs per task submitted to the executor (duels; army battles use fewer).
TASK_SIZE = 400

ProgressFn = Callable[[int, int, str], None]
"""``progress(done, total, label)``, called as jobs finish."""


#: The garbage collector's first threshold while a task of simulations runs (Python's default is
#: 700). The simulations keep large caches of tables and make no reference cycles, so at the
#: default the collector walks the caches again and again and frees nothing: about a sixth of
#: the CPU time of a calibration (issue 14).
SIMULATION_GC_THRESHOLD = 10_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Raise the garbage collector's first threshold to :data:`SIMULATION_GC_THRESHOLD` while
    the block runs (never lower it), and put it back after. Reference counting still frees
    everything at once; only cycles wait longer.

    >>> import gc
    >>> before = gc.get_threshold()
    >>> with fewer_collections():
    ...     gc.get_threshold()[0] >= SIMULATION_GC_THRESHOLD
    True
    >>> gc.get_threshold() == before
    True
    """
    old = gc.get_threshold()
    if old[0] >= SIMULATION_GC_THRESHOLD:
        yield
        return
    gc.set_threshold(SIMULATION_GC_THRESHOLD, old[1], old[2])
    gc.freeze()  # what exists already (the caches) is not walked by the collections in the block
    try:
        yield
    finally:
        gc.unfreeze()
        if gc.get_threshold()[0] == SIMULATION_GC_THRESHOLD:  # not changed meanwhile
            gc.set_threshold(*old)


def default_workers() -> int:
    """Worker processes of the default executor: one per core."""
    return os.cpu_count() or 1


ExecutorKind = Literal["process", "dask"]
"""Where the simulations run: ``"process"`` (a process pool on this machine) or ``"dask"`` (a
``dask.distributed`` cluster: a local one, or the scheduler at an address)."""
EXECUTORS: tuple[str, ...] = ("process", "dask")
#: Seconds to wait for a dask scheduler before giving up.
SCHEDULER_TIMEOUT_S = 10


@contextmanager
def open_executor(
    kind: str = "process", *, scheduler: str | None = None, workers: int | None = None
) -> Iterator[Executor | None]:
    """The executor of ``kind`` for :func:`run_tasks`, shut down on leaving.

    ``"process"`` yields None: :func:`run_tasks` then runs its own process pool of ``workers``
    (one per core by default; ``workers=1`` in this process). ``"dask"`` connects to the
    ``dask.distributed`` scheduler at ``scheduler`` (``tcp://host:8786``) or, without one,
    starts a local cluster of ``workers`` single-threaded worker processes; it needs the
    optional extra ``szwadron[dask]``. Every task carries its own seeds, so the results are the
    same whatever the executor.

    Raises
    ------
    InvalidDataError
        An unknown kind, a scheduler without the dask executor, dask not installed, a cluster
        that cannot start, or a scheduler that cannot be reached.
    """
    if kind not in EXECUTORS:
        raise InvalidDataError(
            gettext("executor must be one of {value}, got {kind!r}").format(
                value=", ".join(EXECUTORS), kind=kind
            )
        )
    if kind == "process":
        if scheduler is not None:
            raise InvalidDataError(gettext("a scheduler address needs the dask executor (--executor dask)"))
        yield None
        return
    try:  # an optional extra: imported only when asked for
        from distributed import Client, LocalCluster
    except ImportError:
        raise InvalidDataError(
            gettext("the dask executor needs dask.distributed: pip install 'szwadron[dask]'")
        ) from None
    client: Any = None
    cluster: Any = None
    try:
        if scheduler is not None:
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT_S)  # type: ignore[no-untyped-call]
        else:
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=workers or default_workers(),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            )
            client = Client(cluster, timeout=SCHEDULER_TIMEOUT_S)  # type: ignore[no-untyped-call]
    except Exception as exc:  # any failure to start is the user's to fix
        if cluster is not None:
            cluster.close()
        where = (
            gettext("the dask scheduler at {scheduler!r}").format(scheduler=scheduler)
            if scheduler
            else gettext("a local dask cluster")
        )
        raise InvalidDataError(
            gettext("cannot start or reach {where}: {__name__}: {exc}").format(
                where=where, __name__=type(exc).__name__, exc=exc
            )
        ) from None
    try:
        yield client.get_executor()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def run_tasks(
    task: Callable[..., list[Any]],
    before: tuple[Any, ...],
    specs: Sequence[Any],
    after: tuple[Any, ...] = (),
    *,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: ProgressFn | None = None,
    label: str = "duels",
    task_size: int = TASK_SIZE,
) -> list[Any]:
    """Run ``task(*before, chunk, *after)`` over chunks of ``specs`` on ``executor`` (default: a
    process pool of ``workers``, one per core; ``workers=1`` runs in this process) and return
    the results of all chunks in the order of ``specs``, reporting ``progress`` as chunks finish.
    ``task`` must be a top-level function and its arguments plain data, so that any executor
    (a process pool, a ``dask.distributed`` client's) can ship them."""
    chunks = [list(specs[k : k + task_size]) for k in range(0, len(specs), task_size)]
    results: list[list[Any] | None] = [None] * len(chunks)
    done = 0
    total = len(specs)
    if progress is not None:
        progress(0, total, label)
    if executor is None and (workers or default_workers()) <= 1:
        for k, chunk in enumerate(chunks):
            results[k] = task(*before, chunk, *after)
            done += len(chunk)
            if progress is not None:
                progress(done, total, label)
    else:
        own = executor is None
        pool: Executor = (
            executor if executor is not None else ProcessPoolExecutor(workers or default_workers())
        )
        try:
            futures = {pool.submit(task, *before, chunk, *after): k for k, chunk in enumerate(chunks)}
            for fut in as_completed(futures):
                k = futures[fut]
                results[k] = fut.result()
                done += len(chunks[k])
                if progress is not None:
                    progress(done, total, label)
        finally:
            if own:
                pool.shutdown()
    return [r for chunk in results if chunk is not None for r in chunk]


def wilson_interval(wins: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval (95 % by default) of a proportion; draws count half.

    >>> lo, hi = wilson_interval(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    >>> wilson_interval(0, 1000)[0], wilson_interval(1000, 1000)[1]
    (0.0, 1.0)
    """
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    if wins <= 0:  # exactly 0 (the formula leaves rounding dust such as 2e-17)
        return 0.0, min(1.0, centre + half)
    if wins >= n:
        return max(0.0, centre - half), 1.0
    return max(0.0, centre - half), min(1.0, centre + half)


class Tally(ABC):
    """A win rate over a number of games, draws counted half: mixed into the result dataclasses
    (they hold ``wins`` and say in :meth:`games` how many games were played).

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Score(Tally):
    ...     wins: float
    ...     n: int
    ...     def games(self) -> int:
    ...         return self.n
    >>> s = Score(52.5, 100)
    >>> s.rate, s.in_band, [round(x, 3) for x in s.interval]
    (0.525, True, [0.428, 0.62])
    """

    wins: float

    @abstractmethod
    def games(self) -> int:
        """How many games the tally counts."""

    @property
    def rate(self) -> float:
        """Share of the games won (draws half); 0.5 with no games."""
        n = self.games()
        return self.wins / n if n else 0.5

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95 % interval of :attr:`rate`."""
        return wilson_interval(self.wins, self.games())

    @property
    def in_band(self) -> bool:
        """The win rate lies within 50 ± 5 % (:data:`BAND`)."""
        return BAND[0] <= self.rate <= BAND[1]

    def summary(self) -> dict[str, Any]:
        """``win_rate``, ``interval`` and ``in_band``, for ``--json`` documents."""
        return {"win_rate": self.rate, "interval": list(self.interval), "in_band": self.in_band}


__all__ = [
    "BAND",
    "EXECUTORS",
    "SCHEDULER_TIMEOUT_S",
    "SIMULATION_GC_THRESHOLD",
    "TASK_SIZE",
    "ExecutorKind",
    "ProgressFn",
    "Tally",
    "default_workers",
    "fewer_collections",
    "open_executor",
    "run_tasks",
    "wilson_interval",
]
