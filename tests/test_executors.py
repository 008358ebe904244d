"""Issue 14 — the simulations give the same numbers whatever runs them: in this process, on a
process pool, on a dask ``LocalCluster``; and an executor that cannot start is bad input (exit 2,
one message)."""

from __future__ import annotations

import pytest

from szwadron.armies.battles import play, roster_force
from szwadron.armies.calibrate import army_list_paths, design, duel_profiles, load_lists, run_duels
from szwadron.armies.points import load_model
from szwadron.armies.runs import open_executor
from szwadron.cli import main
from szwadron.errors import InvalidDataError


def _work(
    executor: object | None, workers: int | None
) -> tuple[list[tuple[float, int]], list[tuple[float, int]]]:
    armies = {a.id: a for a in load_lists(army_list_paths())}
    fr, ru = armies["france"], armies["russia"]
    forces = [roster_force(fr, fr.roster("corps-1000")), roster_force(ru, ru.roster("corps-1000"))]
    specs = [(0, 1, k % 2, f"exec:{k}") for k in range(24)]
    battles = play(forces, specs, executor=executor, workers=workers)  # type: ignore[arg-type]
    entries = duel_profiles(list(armies.values()))[:5]
    from szwadron.armies.calibrate import CalibrationConfig

    duel_specs = design(entries, load_model(), CalibrationConfig(duels_per_pair=3), 0)
    duels = run_duels(
        [e.profile for e in entries], duel_specs, executor=executor, workers=workers, task_size=7
    )  # type: ignore[arg-type]
    return battles, duels


def test_serial_pool_and_dask_give_the_same_results() -> None:
    pytest.importorskip("distributed")
    serial = _work(None, 1)
    pool = _work(None, 2)
    with open_executor("dask", workers=2) as executor:
        assert executor is not None
        dask = _work(executor, None)
    assert serial == pool == dask
    assert len(serial[0]) == 24 and {s for s, _ in serial[0]} <= {0.0, 0.5, 1.0}


def test_unknown_executor_is_bad_input() -> None:
    with pytest.raises(InvalidDataError, match="executor must be one of"):
        with open_executor("threads"):
            pass


def test_unreachable_scheduler_exits_2_with_one_message(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    code = main(["points", "validate", "--scheduler", "tcp://127.0.0.1:9", "--battles", "0", "--duels", "1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert "cannot start or reach the dask scheduler at 'tcp://127.0.0.1:9'" in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_scheduler_needs_the_dask_executor(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["points", "calibrate", "--executor", "process", "--scheduler", "tcp://x:1", "--dry-run"])
    _, err = capsys.readouterr()
    assert code == 2 and "--scheduler needs --executor dask" in err


def test_executor_options_belong_to_calibrate_and_validate(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["points", "france", "--executor", "dask"])
    _, err = capsys.readouterr()
    assert code == 2 and "applies only to 'points calibrate' and 'points validate'" in err
