"""What the Python bench clients share: the command line, the measurement window and the result line,
the same as bench_common.h does for the C clients (see there for the method)."""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import threading
import time
from typing import Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import canned  # noqa: E402

WARMUP, MEASURE, DRAIN = 0, 1, 2


def parse(default_mode: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    p.add_argument("--op", choices=["anon", "password", "token"], default="password")
    p.add_argument("--inflight", type=int, default=1)
    p.add_argument("--warmup", type=int, default=50)
    p.add_argument("--warmup-seconds", type=float, default=3.0)
    p.add_argument("--ops", type=int, default=2000)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--wave", type=int, default=0)
    p.add_argument("--first", action="store_true")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--mode", default=default_mode)
    args = p.parse_args()
    spawn = os.environ.get("BENCH_SPAWN_NS")
    args.spawn_ns = int(spawn) if spawn else 0
    return args


def cpu_seconds() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def threads() -> int:
    return len(os.listdir("/proc/self/task"))


def status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1])
    return -1


def rollup_kib(field: str) -> int:
    with open("/proc/self/smaps_rollup") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1])
    return -1


def rss_by_mapping(top: int = 14) -> dict:
    totals: dict = {}
    current = None
    with open("/proc/self/smaps") as f:
        for line in f:
            head = line.split(None, 5)
            if len(head) >= 5 and "-" in head[0] and not head[0].endswith(":"):
                path = head[5].strip() if len(head) > 5 else ""
                current = os.path.basename(path) if path.startswith("/") else (path or "[anon]")
            elif line.startswith("Rss:") and current is not None:
                totals[current] = totals.get(current, 0) + int(line.split()[1])
    return dict(sorted(totals.items(), key=lambda kv: -kv[1])[:top])


def reset_peak_rss() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


class Run:
    """The closed-loop window. complete() is thread-safe (thread-pool clients call it from workers)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.lock = threading.Lock()
        self.phase = WARMUP
        self.completed_total = 0
        self.measured = 0
        self.errors = 0
        self.last_error = ""
        self.started = 0
        self.latencies_us: list = []
        self.t0 = self.t1 = 0
        self.cpu0 = self.cpu1 = 0.0
        self.threads = 0
        self.rss_kib = 0
        self.done = threading.Event()    # the window closed and nothing is in flight
        self.closed = threading.Event()  # the window closed
        self.inflight_now = 0
        self.created_ns = time.monotonic_ns()
        if args.warmup <= 0:
            self._open()

    def _open(self) -> None:
        self.phase = MEASURE
        self.t0 = time.monotonic_ns()
        self.cpu0 = cpu_seconds()

    def _close(self) -> None:
        self.t1 = time.monotonic_ns()
        self.cpu1 = cpu_seconds()
        self.threads = threads()
        self.rss_kib = status_kib("VmRSS:")
        self.phase = DRAIN
        self.closed.set()

    def start(self) -> Optional[int]:
        """Counts an operation about to start and returns its start time; None once the window has
        closed (the caller stops: with threads, one may get here after another closed the window and
        the result line was written, and a request sent then would be one the line does not count)."""
        with self.lock:
            if self.phase == DRAIN:
                return None
            if self.started == 0 and self.phase == WARMUP:
                self.created_ns = time.monotonic_ns()  # warm-up clock: from the first operation
            self.started += 1
            self.inflight_now += 1
        return time.monotonic_ns()

    def complete(self, start_ns: int, error: Optional[BaseException]) -> bool:
        """Records a completion; True when the caller should start another operation."""
        with self.lock:
            self.completed_total += 1
            self.inflight_now -= 1
            if error is not None:
                self.errors += 1
                self.last_error = f"{type(error).__name__}: {error}"[:200]
            if self.phase == WARMUP:
                if (self.completed_total >= self.args.warmup
                        or (time.monotonic_ns() - self.created_ns) / 1e9 >= self.args.warmup_seconds):
                    self._open()
                    if self.args.ops <= 0:
                        self._close()
            elif self.phase == MEASURE:
                now = time.monotonic_ns()
                self.latencies_us.append((now - start_ns) / 1000.0)
                self.measured += 1
                if self.measured >= self.args.ops or (now - self.t0) / 1e9 >= self.args.seconds:
                    self._close()
            go_on = self.phase != DRAIN
            if not go_on and self.inflight_now == 0:
                self.done.set()
            return go_on

    def report(self, client: str, requests_per_op: int, setup_requests: int = 0, **extra) -> None:
        lat = sorted(self.latencies_us)

        def pct(p: float) -> float:
            return lat[int(p * (len(lat) - 1) + 0.5)] if lat else -1

        wall = (self.t1 - self.t0) / 1e9
        cpu = self.cpu1 - self.cpu0
        out = {
            "client": client, "mode": self.args.mode, "op": self.args.op, "inflight": self.args.inflight,
            "measured": self.measured, "completed_total": self.completed_total, "started": self.started,
            "errors": self.errors, "last_error": self.last_error, "wall_s": wall, "cpu_s": cpu,
            "ops_per_s": self.measured / wall if wall > 0 else 0,
            "cpu_us_per_op": cpu * 1e6 / self.measured if self.measured else 0,
            "p50_us": pct(0.5), "p99_us": pct(0.99), "threads": self.threads, "rss_kib": self.rss_kib,
            "expected_requests": setup_requests + self.started * requests_per_op,
        }
        out.update(extra)
        print(json.dumps(out), flush=True)


def exit_now() -> None:
    """Ends the process once the result is printed, without waiting for operations still in flight
    (a slow peer would otherwise spend many seconds draining outside the window)."""
    sys.stdout.flush()
    os._exit(0)


def report_first(args: argparse.Namespace, client: str, main_ns: int, issue_ns: int, done_ns: int,
                 error: Optional[BaseException]) -> None:
    print(json.dumps({
        "client": client, "mode": args.mode, "op": args.op, "first": True, "error": 0 if error is None else 1,
        "spawn_to_main_us": (main_ns - args.spawn_ns) / 1e3 if args.spawn_ns else -1,
        "spawn_to_done_us": (done_ns - args.spawn_ns) / 1e3 if args.spawn_ns else -1,
        "op_latency_us": (done_ns - issue_ns) / 1e3, "rss_kib": status_kib("VmRSS:"), "threads": threads(),
        "anon_kib": rollup_kib("Anonymous:"), "private_dirty_kib": rollup_kib("Private_Dirty:"),
        "rss_by_mapping_kib": rss_by_mapping(),
    }), flush=True)


def report_wave(args: argparse.Namespace, client: str, completed: int, errors: int, before: int, seconds: float) -> None:
    peak = status_kib("VmHWM:")
    print(json.dumps({
        "client": client, "mode": args.mode, "op": args.op, "wave": args.wave, "completed": completed,
        "errors": errors, "rss_before_kib": before, "peak_kib": peak, "rss_after_kib": status_kib("VmRSS:"),
        "bytes_per_op": (peak - before) * 1024.0 / args.wave if args.wave else 0, "threads": threads(),
        "wave_s": seconds,
    }), flush=True)


# The REST calls the Python peers make: Hearth's URLs, headers and bodies (bench/canned.py).
def urls(args: argparse.Namespace) -> dict:
    base = f"http://{args.host}:{args.port}"
    key = canned.ANON_KEY if args.op == "anon" else canned.PASSWORD_KEY
    return {name: f"{base}{path}?key={key}" for name, path in canned.PATHS.items()}


JSON_HEADERS = {"Content-Type": "application/json", "X-Client-Version": "Hearth/0.1.0"}
FORM_HEADERS = {"Content-Type": "application/x-www-form-urlencoded", "X-Client-Version": "Hearth/0.1.0"}


def lookup_body(id_token: str) -> str:
    return json.dumps({"idToken": id_token}, separators=(",", ":"))
