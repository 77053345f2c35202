"""``authorag mcp`` speed, in one run, through the real ``mcp`` client library:

* start-up: from launching ``authorag mcp`` (stdio) to the ``tools/list`` answer, against two
  baselines launched the same way in the same run: ``python -m authorag --version`` (the CLI's
  own start) and ``python -c "import mcp"`` (the SDK's import). Each as wall time and as the CPU
  time the launched process used (for the server: until the answer, read from ``/proc``; on a
  shared machine the wall time also counts the other processes' turns, the CPU time does not;
  on an idle one they agree, as the GIL runs one thread of the server at a time);
* ``score_sources`` of 100 URLs (prior-only, half known domains, half unknown) per call, over
  stdio and over streamable HTTP on loopback, against ``RerankService.authority`` on the same
  URLs in this process (the HTTP API's ``/v1/authority`` work, no transport; CPU time, median).

Targets, checked on the CPU time: ``tools/list`` answered within 1 s of the start; a 100-URL
``score_sources`` call within 50 ms (the client's and the server's CPU time per call; the wall
time, client to server and back, is printed too). Start-up figures are the best (minimum) of
``--starts`` launches; call figures the median wall time and the mean CPU time of ``--calls``
calls after three warm-up calls. Linux (``/proc``).

    .venv/bin/python scripts/bench_mcp.py                       # ~30 s
    .venv/bin/python scripts/bench_mcp.py --json
    .venv/bin/python scripts/bench_mcp.py --starts 7 --calls 50 --out docs/results/perf/bench_mcp.json

``--out`` writes the figures with the command, package versions and CPU count (the committed
file changes only through this script).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # measure this checkout, not an installed copy

START_TARGET_S = 1.0
CALL_TARGET_MS = 50.0


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


def urls(n: int) -> list[str]:
    """``n`` URLs: even positions on known domains, odd ones on unknown hosts."""
    known = ["www.nih.gov", "www.cdc.gov", "www.bbc.co.uk", "en.wikipedia.org", "www.nytimes.com",
             "someone.blogspot.com", "www.mayoclinic.org", "medium.com", "www.who.int", "www.reuters.com"]
    return [f"https://{known[i % len(known)] if i % 2 == 0 else f'site-{i}.example-health.net'}/page/{i}"
            for i in range(n)]


def _children_cpu_s() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def _launch_s(argv: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``python argv`` to its exit."""
    cpu0, t0 = _children_cpu_s(), time.perf_counter()
    subprocess.run([sys.executable, *argv], check=True, capture_output=True, env=_env())
    return time.perf_counter() - t0, _children_cpu_s() - cpu0


def _process_cpu_s(pid: int) -> float:
    """User + system CPU seconds process ``pid`` has used so far (``/proc/PID/stat``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _child_pids() -> list[int]:
    me, out = os.getpid(), []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == me:
                    out.append(int(entry.name))
            except OSError:  # the process ended while we looked
                continue
    return out


async def _until_tools_listed() -> tuple[float, float]:
    """(wall, CPU) seconds from launching the stdio server to its ``tools/list`` answer."""
    from mcp import Client, StdioServerParameters

    before = set(_child_pids())
    t0 = time.perf_counter()
    params = StdioServerParameters(command=sys.executable, args=["-m", "authorag", "mcp"], env=_env())
    async with Client(params) as client:
        await client.list_tools()
        wall = time.perf_counter() - t0
        (server,) = set(_child_pids()) - before
        return wall, _process_cpu_s(server)


async def _call_ms(client: Any, arguments: dict[str, Any], calls: int, server: int) -> tuple[float, float]:
    """(median wall ms, mean CPU ms of this process and the server ``pid`` together) per call."""
    for _ in range(3):  # the first waits for the scorer to load
        result = await client.call_tool("score_sources", arguments)
        assert not result.is_error, result.content
    times = []
    cpu0 = time.process_time() + _process_cpu_s(server)
    for _ in range(calls):
        t0 = time.perf_counter()
        await client.call_tool("score_sources", arguments)
        times.append((time.perf_counter() - t0) * 1000)
    cpu = (time.process_time() + _process_cpu_s(server) - cpu0) * 1000 / calls
    return statistics.median(times), cpu


async def _stdio_ms(arguments: dict[str, Any], calls: int) -> tuple[float, float]:
    from mcp import Client, StdioServerParameters

    before = set(_child_pids())
    params = StdioServerParameters(command=sys.executable, args=["-m", "authorag", "mcp"], env=_env())
    async with Client(params) as client:
        (server,) = set(_child_pids()) - before
        return await _call_ms(client, arguments, calls, server)


async def _http_ms(arguments: dict[str, Any], calls: int) -> tuple[float, float]:
    from mcp import Client

    from authorag.testing import free_port, wait_until_ready

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "authorag", "mcp", "--transport", "http", "--port", str(port)],
                            env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_until_ready(f"http://127.0.0.1:{port}/readyz", process=proc)
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            return await _call_ms(client, arguments, calls, proc.pid)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _in_process_ms(batch: list[str], calls: int) -> float:
    from authorag.server.config import ServerConfig
    from authorag.server.schemas import AuthorityRequest
    from authorag.server.service import RerankService

    service = RerankService(ServerConfig.from_env())
    request = AuthorityRequest(urls=batch)
    service.authority(request)
    times = []
    for _ in range(calls):
        t0 = time.thread_time()
        service.authority(request)
        times.append((time.thread_time() - t0) * 1000)
    return statistics.median(times)


def measure(n_urls: int, starts: int, calls: int) -> dict[str, Any]:
    """Every figure of one run (seconds for start-up, milliseconds per call)."""
    runs: dict[str, Callable[[], tuple[float, float]]] = {
        "authorag mcp: launch to tools/list": lambda: asyncio.run(_until_tools_listed()),
        "python -m authorag --version": lambda: _launch_s(["-m", "authorag", "--version"]),
        "python -c 'import mcp'": lambda: _launch_s(["-c", "import mcp"]),
    }
    start: dict[str, float] = {}
    start_cpu: dict[str, float] = {}
    for name, fn in runs.items():
        times = [fn() for _ in range(starts)]
        start[name], start_cpu[name] = min(t[0] for t in times), min(t[1] for t in times)
    arguments = {"urls": urls(n_urls)}
    stdio, http = asyncio.run(_stdio_ms(arguments, calls)), asyncio.run(_http_ms(arguments, calls))
    call = {"score_sources over stdio": stdio[0], "score_sources over streamable HTTP": http[0]}
    call_cpu = {"RerankService.authority (no transport)": _in_process_ms(arguments["urls"], calls),
                "score_sources over stdio": stdio[1], "score_sources over streamable HTTP": http[1]}
    base_start = start_cpu["python -m authorag --version"] + start_cpu["python -c 'import mcp'"]
    core = call_cpu["RerankService.authority (no transport)"]
    listed = start_cpu["authorag mcp: launch to tools/list"]
    met = {f"tools/list <= {START_TARGET_S} s after the start (CPU time)": listed <= START_TARGET_S,
           **{f"{k} <= {CALL_TARGET_MS} ms (CPU time)": v <= CALL_TARGET_MS for k, v in call_cpu.items()
              if k in call}}
    return {"urls": n_urls, "starts": starts, "calls": calls, "start_s": start, "start_cpu_s": start_cpu,
            "start_ratio_to_cli_plus_sdk_import": listed / base_start,
            "call_ms": call, "call_cpu_ms": call_cpu, "call_cpu_ratio_to_in_process": {k: v / core for k, v in call_cpu.items() if k in call},
            "targets": met, "targets_met": all(met.values())}


def main(argv: list[str] | None = None) -> int:
    """Print the figures (or JSON); exit 0 either way (this is a measurement, not a test)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--urls", type=int, default=100)
    p.add_argument("--starts", type=int, default=5)
    p.add_argument("--calls", type=int, default=30)
    p.add_argument("--json", action="store_true")
    p.add_argument("--out", help="also write the figures to this JSON file")
    args = p.parse_args(argv)
    out = measure(args.urls, args.starts, args.calls)
    if args.out:
        _write(args.out, out, argv)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"start-up, best of {args.starts} launches (seconds):  {'wall':>7} {'CPU':>7}")
    for name, value in out["start_s"].items():
        print(f"  {name:<44} {value:7.3f} {out['start_cpu_s'][name]:7.3f}")
    print(f"  launch to tools/list / (CLI start + SDK import), CPU: {out['start_ratio_to_cli_plus_sdk_import']:.2f}")
    print(f"score_sources of {args.urls} URLs, prior-only, {args.calls} calls (ms):  {'CPU':>7} {'wall':>7}")
    for name, cpu in out["call_cpu_ms"].items():
        wall, ratio = out["call_ms"].get(name), out["call_cpu_ratio_to_in_process"].get(name)
        print(f"  {name:<44} {cpu:7.2f} {'' if wall is None else f'{wall:7.2f}':>7}"
              f"{'' if ratio is None else f'  CPU x{ratio:.1f} the service alone'}")
    for target, ok in out["targets"].items():
        print(f"  {'met    ' if ok else 'NOT met'}  {target}")
    return 0


def _write(path: str, out: dict[str, Any], argv: list[str] | None) -> None:
    """The figures plus what reproduces them: the command, versions, CPUs, Python."""
    import platform
    from importlib.metadata import version

    args = sys.argv[1:] if argv is None else argv
    record = {"command": " ".join(["python scripts/bench_mcp.py", *args]), "python": platform.python_version(),
              "cpus": os.cpu_count(), "versions": {pkg: version(pkg) for pkg in ("authorag", "mcp", "pydantic")},
              **out}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
