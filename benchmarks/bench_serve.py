"""Benchmark of ``szwadron serve`` (issue 18): the server's work per drag update, and a load test.

A drag update is what the page sends while a unit is dragged: ``POST /api/check`` with the
dragged unit's poses (every base, a little further along each time), answered by the ``check``
document. Timed through the whole application (Starlette's routing, the guards, JSON in and
out, the audit) in this process, with Starlette's test client (its share of the CPU time is in
the figure, so it is an upper bound of the server's):

- on the example battle (``scenarios/example.toml``, 77 bases), dragging fr-hussars; budget 30 ms;
- on ``bench_check.make_table(1000)`` (2 × 1,000 bases), dragging its first unit; budget 150 ms.

The load test starts ``szwadron serve`` on the example as a separate process on a free loopback
port and runs ``--clients`` threads (default 20), each sending drag updates one after another
for ``--seconds`` (default 60; at most 100,000 requests in all); every answer must be 200 with
the check document. Reported: requests, errors, p50/p99/max latency, and the server process's
CPU time per request (from /proc).

Run:  .venv/bin/python benchmarks/bench_serve.py [--seconds 60] [--clients 20] [--write]
(``--write`` replaces the "## Serve (issue 18)" section of benchmarks/RESULTS.md.)
"""

from __future__ import annotations

import argparse
import datetime as dt
import http.client
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _results import Timing, median_times, write_section

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "scenarios" / "example.toml"
HEADING = "## Serve (issue 18)"

#: Bound on the load test's requests, whatever the time.
MAX_REQUESTS = 100_000


def _client(scenario: Path) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from szwadron.web.app import create_app

    return TestClient(create_app(scenario))


def write_big_table(folder: Path) -> Path:
    """``make_table(1000)`` as a scenario file (profiles inline)."""
    import tomlkit
    from bench_check import make_table

    scenario = make_table(1000)
    data = scenario.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    data["name"] = scenario.name
    data["table"] = scenario.table.model_dump(mode="json")
    path = folder / "big.toml"
    path.write_text(tomlkit.dumps(data), encoding="utf-8")
    return path


def drag_updates(state: dict[str, Any], unit: str, steps: int) -> list[dict[str, Any]]:
    """The bodies the page sends while dragging ``unit`` 0.5 cm a step."""
    bases = next(u for u in state["units"] if u["id"] == unit)["bases"]
    return [
        {"positions": {unit: [[b["x"] + 0.5 * k, b["y"] + 0.25 * k, b["facing"]] for b in bases]}}
        for k in range(1, steps + 1)
    ]


def per_update(scenario: Path, unit: str | None, repeats: int) -> tuple[Timing, int, str]:
    """Median time of one drag update through the application."""
    client = _client(scenario)
    state = client.get("/api/state").json()
    unit = unit or state["units"][0]["id"]
    bodies = drag_updates(state, unit, repeats)
    it = iter(bodies * 2)
    client.post("/api/check", json=next(it))  # warm: imports, caches

    def one() -> None:
        r = client.post("/api/check", json=next(it))
        assert r.status_code == 200, r.text

    timing = median_times(one, repeats)
    n = sum(len(u["bases"]) for u in state["units"])
    return timing, n, unit


def _cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_test(seconds: float, clients: int) -> dict[str, Any]:
    """``clients`` threads sending drag updates to a served example for ``seconds``."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "szwadron", "serve", str(EXAMPLE), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not m:
            raise RuntimeError(
                f"the server did not start: {line!r} {proc.stderr.read() if proc.stderr else ''}"
            )
        port = int(m.group(1))
        state = json.loads(_get(port, "/api/state"))
        units = [u["id"] for u in state["units"]]
        latencies: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        budget = [MAX_REQUESTS]
        cpu0, own0 = _cpu_of(proc.pid), time.process_time()
        load0 = os.getloadavg()[0]
        t_end = time.perf_counter() + seconds

        def run(k: int) -> None:
            bodies = [json.dumps(b) for b in drag_updates(state, units[k % len(units)], 40)]
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            i = 0
            while time.perf_counter() < t_end:
                with lock:
                    if budget[0] <= 0:
                        break
                    budget[0] -= 1
                body = bodies[i % len(bodies)]
                i += 1
                t0 = time.perf_counter()
                try:
                    conn.request("POST", "/api/check", body, {"content-type": "application/json"})
                    resp = conn.getresponse()
                    data = resp.read()
                    ok = resp.status == 200 and b'"zone_intrusions"' in data
                except (OSError, http.client.HTTPException) as exc:
                    ok, data = False, str(exc).encode()
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                dt_s = time.perf_counter() - t0
                with lock:
                    latencies.append(dt_s)
                    if not ok:
                        errors.append(data[:200].decode(errors="replace"))
            conn.close()

        threads = [threading.Thread(target=run, args=(k,)) for k in range(clients)]
        t0 = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - t0
        cpu = _cpu_of(proc.pid) - cpu0
        own = time.process_time() - own0
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    lat = sorted(latencies)
    return {
        "clients": clients,
        "seconds": wall,
        "requests": len(lat),
        "errors": len(errors),
        "first_error": errors[0] if errors else None,
        "p50": statistics.median(lat),
        "p99": lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "max": lat[-1],
        "rate": len(lat) / wall,
        "server_cpu_per_request": cpu / max(1, len(lat)),
        "server_cpu_share": cpu / wall,
        "client_cpu_share": own / wall,
        "load_average": load0,
    }


def _get(port: int, path: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    return conn.getresponse().read().decode()


def _section(
    example: tuple[Timing, int, str], big: tuple[Timing, int, str], load: dict[str, Any], repeats: int
) -> str:
    import shapely
    import starlette
    import uvicorn

    head = (
        f"`benchmarks/bench_serve.py` — {dt.date.today().isoformat()}, {platform.machine()}, "
        f"{os.cpu_count()} cores (shared with other work), Python {platform.python_version()}, "
        f"shapely {shapely.__version__}, Starlette {starlette.__version__}, uvicorn {uvicorn.__version__}. "
        "A drag update is `POST /api/check` with the dragged unit's poses, answered by the `check` "
        "document; timed through the whole application (guards, routing, JSON in and out, the audit) "
        f"with Starlette's test client in the same process (its CPU is counted too); median of {repeats}. "
        "The budgets are on the CPU time (the server's work per update); the wall time is what a "
        "shared, loaded machine made of it."
    )
    rows = [
        "| table | bases | dragged unit | per update | budget |",
        "|---|---:|---|---:|---:|",
        f"| example battle | {example[1]} | {example[2]} | {example[0].ms(1)} | 30 ms |",
        f"| `make_table(1000)` (2 × 1,000) | {big[1]} | {big[2]} | {big[0].ms(1)} | 150 ms |",
    ]
    load_text = (
        f"Load: `szwadron serve scenarios/example.toml` as its own process on a free loopback port; "
        f"{load['clients']} client threads (one keep-alive connection each) sending drag updates back "
        f"to back for {load['seconds']:.0f} s (bounded at {MAX_REQUESTS:,} requests): "
        f"{load['requests']:,} requests ({load['rate']:.0f}/s), {load['errors']} errors; latency p50 "
        f"{1e3 * load['p50']:.0f} ms, p99 {1e3 * load['p99']:.0f} ms, max {1e3 * load['max']:.0f} ms "
        f"(wall, queueing included: one server process answers them in turn); server CPU "
        f"{1e3 * load['server_cpu_per_request']:.1f} ms per request, {100 * load['server_cpu_share']:.0f}% "
        f"of one core (the clients' process: {100 * load['client_cpu_share']:.0f}%; load average "
        f"{load['load_average']:.1f} on {os.cpu_count()} cores at the start). The page itself sends at most one request at a time and the latest change "
        "when it returns, so a dragging user waits one answer, not a queue."
    )
    return "\n".join([HEADING, "", head, "", *rows, "", load_text, ""])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeats", type=int, default=31)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--write", action="store_true", help="write the section of benchmarks/RESULTS.md")
    args = ap.parse_args()
    if not 0 < args.seconds <= 120 or not 0 < args.clients <= 50:
        ap.error("the load test is bounded: --seconds in (0, 120], --clients in (0, 50]")
    example = per_update(EXAMPLE, "fr-hussars", args.repeats)
    print(f"example: {example[1]} bases, drag {example[2]}: {example[0].ms(1)} per update")
    with tempfile.TemporaryDirectory() as tmp:
        big = per_update(write_big_table(Path(tmp)), None, max(5, args.repeats // 3))
    print(f"2 × 1,000: {big[1]} bases, drag {big[2]}: {big[0].ms(1)} per update")
    load = load_test(args.seconds, args.clients)
    print(json.dumps(load, indent=1))
    ok = example[0].cpu < 0.030 and big[0].cpu < 0.150 and load["errors"] == 0
    if args.write:
        write_section(HEADING, _section(example, big, load, args.repeats))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
