#!/usr/bin/env python3
"""`make bench`: measures Hearth against the physical limit (raw libcurl) and the Python peers, on loopback.

Starts its own servers (Debian's nginx with canned Identity Toolkit answers, hearth-emulator), runs every
client in several rounds, checks on the server side that each client sent exactly the requests it
claims, and writes bench/results.json; bench/report.py turns that into bench/RESULTS.md, the plots under
bench/plots/ and the table printed at the end. Misses never fail: the exit status is non-zero only when
the harness itself cannot run (a server that does not start, a client that does not build).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
import canned  # noqa: E402

LIB = Path(os.environ.get("HEARTH_BENCH_LIB", ROOT / ".build/release/libhearth.so"))
EMULATOR = Path(os.environ.get("HEARTH_BENCH_EMULATOR", ROOT / ".build/release/hearth-emulator"))
BUILD = ROOT / ".build-bench"
BIN = BUILD / "bin"
SNAPSHOT = BUILD / "lib" / "libhearth.so"
CLIENTS_DIR = HERE / "clients"
LEVELS = [1, 16, 64, 256, 1024]
OPS = ["password", "anon", "token"]
WAVE = 10_000
PROXY_VARS = {"http_proxy", "https_proxy", "ftp_proxy", "all_proxy", "no_proxy", "socks_proxy"}


# ------------------------------------------------------------------------------------------------
# Pinning: the servers on one core, the clients on another
# ------------------------------------------------------------------------------------------------
# Where the scheduler puts a client relative to nginx moves its figures by tens of percent on a 2-core
# machine (the same core: they take turns; different cores: they run in parallel, and each keeps its
# caches). Every server runs under `taskset -c SERVER_CPU` and every client under `taskset -c CLIENT_CPU`,
# a client's threads all on that one core. With fewer than two usable cores (or no taskset) nothing is
# pinned, and the report says so.
def pinning() -> dict:
    cpus = sorted(os.sched_getaffinity(0))
    taskset = shutil.which("taskset")
    if len(cpus) < 2 or not taskset:
        return {"pinned": False, "why": "fewer than 2 usable cores" if len(cpus) < 2 else "no taskset", "cpus": cpus}
    return {"pinned": True, "server_cpu": cpus[0], "client_cpu": cpus[1], "cpus": cpus, "taskset": taskset}


PIN = pinning()


def on_server_cpu(argv: list) -> list:
    return [PIN["taskset"], "-c", str(PIN["server_cpu"])] + argv if PIN["pinned"] else argv


def on_client_cpu(argv: list) -> list:
    return [PIN["taskset"], "-c", str(PIN["client_cpu"])] + argv if PIN["pinned"] else argv


# The most operations any client keeps in flight: each holds a connection (HTTP/1.1), so a client needs
# that many descriptors, and nginx and hearth-emulator must accept that many connections.
MAX_INFLIGHT = max(LEVELS)


def raise_file_limit() -> dict:
    """Raises this process's soft RLIMIT_NOFILE to its hard limit (the clients and servers inherit it)
    and says whether 1,024 connections fit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return {"soft": soft, "hard": hard, "enough": soft >= 2 * MAX_INFLIGHT + 256}


def open_files_limit(pid: int) -> int:
    """The soft 'Max open files' of a running process (/proc/PID/limits), or -1."""
    try:
        for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return int(line.split()[3])
    except (OSError, ValueError, IndexError):
        pass
    return -1


def log(msg: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ------------------------------------------------------------------------------------------------
# Building the clients
# ------------------------------------------------------------------------------------------------
def pkg_flags(name: str, kind: str) -> list:
    try:
        return subprocess.run(["pkg-config", kind, name], capture_output=True, text=True, check=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        return []


def build_clients() -> None:
    BIN.mkdir(parents=True, exist_ok=True)
    (BUILD / "canned_bodies.h").write_text(canned.c_header())
    # A snapshot of the library for the whole run (others may rebuild .build while the bench runs), under
    # its file name and its soname (libhearth.so.0), which is what programs linked with -lhearth load.
    libdir = BUILD / "lib"
    libdir.mkdir(exist_ok=True)
    for old in libdir.iterdir():
        old.unlink()
    shutil.copy2(LIB, SNAPSHOT)
    dyn = subprocess.run(["readelf", "-d", str(SNAPSHOT)], capture_output=True, text=True).stdout
    m = re.search(r"Library soname: \[([^\]]+)\]", dyn)
    if m and m.group(1) != SNAPSHOT.name:
        (libdir / m.group(1)).symlink_to(SNAPSHOT.name)
    common = ["-O2", "-g", "-Wall", "-Wextra", f"-I{CLIENTS_DIR}", f"-I{BUILD}", f"-I{ROOT / 'include'}"]
    hearth_link = [f"-L{libdir}", f"-Wl,-rpath,{libdir}", "-lhearth"] + (pkg_flags("libuv", "--libs") or ["-luv"]) + ["-pthread"]
    jobs = [
        (["cc", "-std=gnu11"], "raw_curl.c", "raw_curl", pkg_flags("libcurl", "--libs") or ["-lcurl"]),
        (["cc", "-std=gnu11"], "hearth_c.c", "hearth_c", hearth_link),
        (["c++", "-std=c++17"], "hearth_cpp.cpp", "hearth_cpp", hearth_link),
        (["cc", "-std=gnu11"], "bare.c", "bare", []),
    ]
    # Always rebuilt (a few seconds): the snapshot's soname or header may have changed since the last run.
    for compiler, src, out, libs in jobs:
        cmd = compiler + common + ["-o", str(BIN / out), str(CLIENTS_DIR / src)] + libs
        subprocess.run(cmd, check=True)
    log("clients built in .build-bench/bin")


# ------------------------------------------------------------------------------------------------
# Servers
# ------------------------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    """Debian's nginx with the canned answers (bench/canned.py), in a temporary prefix."""

    def __init__(self, workers: int = 1) -> None:
        self.prefix = tempfile.mkdtemp(prefix="hearth-bench-nginx-")
        os.chmod(self.prefix, 0o755)
        self.workers = workers
        self.proc: Optional[subprocess.Popen] = None
        self.port = 0

    def start(self) -> None:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        for _ in range(5):
            self.port = free_port()
            conf = Path(self.prefix) / "nginx.conf"
            conf.write_text(canned.nginx_conf(self.prefix, self.port, self.workers))
            self.proc = subprocess.Popen(on_server_cpu([binary, "-p", self.prefix, "-c", str(conf), "-e",
                                                        f"{self.prefix}/error.log"]),
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for _ in range(100):
                try:
                    self.requests()
                    return
                except OSError:
                    if self.proc.poll() is not None:
                        break
                    time.sleep(0.05)
            self.stop()
        raise RuntimeError(f"nginx did not start; see {self.prefix}/error.log")

    def capacity(self) -> dict:
        """What bounds the connections nginx accepts: its workers' open-files limit and
        worker_connections (bench/canned.py)."""
        workers = []
        try:
            out = subprocess.run(["pgrep", "-P", str(self.proc.pid)], capture_output=True, text=True).stdout
            workers = [int(x) for x in out.split()]
        except (OSError, ValueError):
            pass
        limits = [open_files_limit(p) for p in workers]
        conns = canned.WORKER_CONNECTIONS
        usable = min([conns] + [l for l in limits if l > 0]) if limits else -1
        return {"worker_open_files": limits, "worker_connections": conns, "usable": usable,
                "enough": usable >= MAX_INFLIGHT + 16}

    def requests(self) -> int:
        """Requests nginx has answered so far (stub_status; this query counts as one)."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/bench-status", timeout=5) as r:
            text = r.read().decode()
        return int(text.splitlines()[2].split()[2])

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGQUIT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


class Emulator:
    def __init__(self, *flags: str) -> None:
        self.proc: Optional[subprocess.Popen] = None
        self.log = tempfile.NamedTemporaryFile(prefix="hearth-bench-emulator-", suffix=".log", delete=False)
        self.url = ""
        self.flags = list(flags)

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def cpu_seconds(self) -> float:
        """The emulator process's user + system CPU time so far (/proc/PID/stat)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def start(self) -> None:
        self.proc = subprocess.Popen(on_server_cpu([str(EMULATOR), "--host", "127.0.0.1", "--port", "0",
                                                    "--project", canned.PROJECT] + self.flags),
                                     stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(200):
            text = Path(self.log.name).read_text(errors="replace")
            m = re.search(r"listening on (http://\S+)", text)
            if m:
                self.url = m.group(1)
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        raise RuntimeError(f"hearth-emulator did not start: {Path(self.log.name).read_text(errors='replace')[-500:]}")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        os.unlink(self.log.name)


# ------------------------------------------------------------------------------------------------
# Clients
# ------------------------------------------------------------------------------------------------
PY_SNAPSHOT = BUILD / "python"


def snapshot_python_binding() -> str:
    """Copies the Python binding for the whole run, like the library. The work tree's binding may be ahead
    of the built library (someone mid-change): then the binding of the last commit is used, and said so."""
    def try_import() -> str:
        env = client_env()
        p = subprocess.run([sys.executable, "-c", "import hearth"], env=env, capture_output=True, text=True)
        return "" if p.returncode == 0 else (p.stderr.strip().splitlines() or ["import failed"])[-1]

    shutil.rmtree(PY_SNAPSHOT, ignore_errors=True)
    shutil.copytree(ROOT / "bindings/python/hearth", PY_SNAPSHOT / "hearth",
                    ignore=shutil.ignore_patterns("__pycache__"))
    error = try_import()
    if not error:
        return "work tree"
    shutil.rmtree(PY_SNAPSHOT)
    PY_SNAPSHOT.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD", "bindings/python/hearth"], capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(PY_SNAPSHOT), "--strip-components=2"], input=archive.stdout, check=False)
    head_error = try_import()
    if not head_error:
        return f"last commit (the work tree's binding does not load with this library: {error})"
    raise RuntimeError(f"the Python binding does not load: {error}; at HEAD: {head_error}")


def client_env() -> dict:
    env = {k: v for k, v in os.environ.items() if k.lower() not in PROXY_VARS}
    env.pop("FIREBASE_AUTH_EMULATOR_HOST", None)
    env["HEARTH_LIBRARY"] = str(SNAPSHOT)
    env["PYTHONPATH"] = os.pathsep.join([str(PY_SNAPSHOT), str(CLIENTS_DIR)])
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


PY = sys.executable
# name -> (argv, which (op, inflight) pairs it runs)
CLIENTS = {
    "raw-curl/easy": ([str(BIN / "raw_curl"), "--mode", "easy"], lambda op, n: n == 1),
    "raw-curl/multi": ([str(BIN / "raw_curl"), "--mode", "multi"], lambda op, n: True),
    "raw-curl/poll": ([str(BIN / "raw_curl"), "--mode", "poll"], lambda op, n: n > 1),
    # Counted only (callgrind): the limit if it handed curl parsed URLs as Hearth does.
    "raw-curl/easy-parsed-url": ([str(BIN / "raw_curl"), "--mode", "easy-parsed-url"], lambda op, n: False),
    "hearth-c/host": ([str(BIN / "hearth_c"), "--mode", "host"], lambda op, n: True),
    "hearth-c/owned": ([str(BIN / "hearth_c"), "--mode", "owned"], lambda op, n: n == 1 or (op == "password" and n == 64)),
    "hearth-cpp/host": ([str(BIN / "hearth_cpp"), "--mode", "host"], lambda op, n: True),
    "py-hearth/asyncio": ([PY, str(CLIENTS_DIR / "py_hearth.py")], lambda op, n: True),
    "py-requests/seq": ([PY, str(CLIENTS_DIR / "py_requests.py"), "--mode", "seq"], lambda op, n: n == 1),
    "py-requests/per-thread": ([PY, str(CLIENTS_DIR / "py_requests.py"), "--mode", "per-thread"], lambda op, n: n > 1),
    "py-requests/shared": ([PY, str(CLIENTS_DIR / "py_requests.py"), "--mode", "shared"], lambda op, n: n > 1),
    # At 1024 in flight httpx's pool takes ~30 s to complete its first operation: once per bench run.
    "py-httpx/async": ([PY, str(CLIENTS_DIR / "py_httpx.py"), "--mode", "async"],
                       lambda op, n, rnd=0: n < 1024 or (op == "password" and rnd == 0)),
}


def run_client(argv: list, env: dict, timeout: float) -> dict:
    env = dict(env)
    argv = on_client_cpu(argv)
    env["BENCH_SPAWN_NS"] = str(time.monotonic_ns())
    try:
        p = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"failed": f"timed out after {timeout:.0f} s"}
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if p.returncode != 0 or not lines:
        said = [l.strip() for l in (p.stderr or p.stdout).splitlines() if l.strip() and not l.startswith("==")]
        return {"failed": f"exit {p.returncode}: {said[-1][-300:] if said else 'no output'}"}
    return json.loads(lines[-1])


def measure(nginx: Nginx, name: str, op: str, n: int, env: dict, seconds: float, extra: Optional[list] = None) -> dict:
    argv = CLIENTS[name][0] + ["--op", op, "--inflight", str(n), "--port", str(nginx.port), "--seconds", str(seconds),
                               "--ops", "200000", "--warmup", str(max(50, n)), "--warmup-seconds", "1"] + (extra or [])
    before = nginx.requests()
    r = run_client(argv, env, timeout=90)
    served = nginx.requests() - before - 1  # minus the second status query
    r.update(name=name, served_requests=served)
    if "expected_requests" in r:
        # Python peers exit with operations still in flight: up to `inflight` operations' requests may
        # be missing or half-sent. Everyone else must match exactly.
        slack = n * (1 if op == "token" else 2) if name.startswith("py-") else 0
        r["requests_check"] = "ok" if r["expected_requests"] - slack <= served <= r["expected_requests"] else \
            f"MISMATCH: server answered {served}, client claims {r['expected_requests']}"
    return r


def status_line(r: dict) -> str:
    if "failed" in r:
        return f"{r['name']:<18} FAILED {r['failed']}"
    return (f"{r['name']:<18} {r['op']:<8} n={r['inflight']:<5} {r['ops_per_s']:>9.0f} op/s  "
            f"{r['cpu_us_per_op']:>8.1f} us cpu/op  p50 {r['p50_us']:>9.0f} us  p99 {r['p99_us']:>9.0f} us  "
            f"thr {r['threads']:>4}  req {r.get('requests_check', '?')}"
            + (f"  ERRORS {r['errors']} ({r['last_error']})" if r.get("errors") else ""))


# The two sequential targets (CPU per operation, p50 added) compare two clients whose figures this machine's
# clock moves by 10-25% within a minute: in the matrix they run tens of seconds apart. Here they run back to
# back, and each pair gives one ratio; every other pair starts with Hearth, so neither side always runs first.
SEQUENTIAL_PAIRS = 4


def run_pairs(nginx: Nginx, env: dict, seconds: float, rnd: int) -> list:
    pairs = []
    for op in OPS:
        for pair in range(SEQUENTIAL_PAIRS):
            order = ("raw-curl/easy", "hearth-c/host") if pair % 2 == 0 else ("hearth-c/host", "raw-curl/easy")
            for name in order:
                r = measure(nginx, name, op, 1, env, seconds)
                r.update(round=rnd, pair=pair)
                pairs.append(r)
        by_pair: dict = {}
        for r in pairs:
            if "failed" not in r and r["op"] == op:
                by_pair.setdefault(r["pair"], {})[r["name"]] = r["cpu_us_per_op"]
        log(f"sequential pairs, {op} (raw/Hearth CPU per operation): " + ", ".join(
            f"{p.get('raw-curl/easy', 0):.0f}/{p.get('hearth-c/host', 0):.0f} µs" for p in by_pair.values()))
    return pairs


# ------------------------------------------------------------------------------------------------
# callgrind
# ------------------------------------------------------------------------------------------------
CALLGRIND_CLIENTS = [
    ("raw-curl/easy", "password"), ("raw-curl/easy-parsed-url", "password"), ("hearth-c/host", "password"), ("hearth-c/owned", "password"),
    ("hearth-cpp/host", "password"), ("py-hearth/asyncio", "password"), ("py-requests/seq", "password"),
    ("py-httpx/async", "password"),
    ("raw-curl/easy", "anon"), ("hearth-c/host", "anon"), ("raw-curl/easy", "token"), ("hearth-c/host", "token"),
]
# The 64-in-flight target counted as well as timed: the clock of this machine drifts, instructions do not
# (they do move by a percent or two with how many transfers each loop turn batches). Both raw loops are
# counted; the target is judged against the one with fewer instructions.
CALLGRIND_CONCURRENT = [("raw-curl/multi", "password"), ("raw-curl/poll", "password"), ("hearth-c/host", "password"),
                        ("hearth-c/owned", "password"), ("raw-curl/multi", "token"), ("raw-curl/poll", "token"),
                        ("hearth-c/host", "token")]
CALLGRIND_CONCURRENCY = 64
# Runs whose per-function profile (exclusive and inclusive instructions per operation) goes into the report.
CALLGRIND_PROFILED = {("raw-curl/easy", "password", 1), ("hearth-c/host", "password", 1), ("raw-curl/easy", "token", 1),
                      ("hearth-c/host", "token", 1), ("raw-curl/multi", "password", 64), ("raw-curl/poll", "password", 64),
                      ("hearth-c/host", "password", 64)}


def callgrind_functions(path: str, inclusive: bool) -> dict:
    args = ["callgrind_annotate", "--threshold=100", "--auto=no"] + (["--inclusive=yes"] if inclusive else []) + [path]
    out = subprocess.run(args, capture_output=True, text=True).stdout
    functions: dict = {}
    in_table = False
    for line in out.splitlines():
        if "file:function" in line:
            in_table = True
            continue
        if not in_table:
            continue
        m = re.match(r"\s*([\d,]+)\s+\([^)]*\)\s+(.*)$", line)
        if m:
            functions[m.group(2)] = functions.get(m.group(2), 0) + int(m.group(1).replace(",", ""))
    return functions


def callgrind_total(path: str) -> int:
    out = subprocess.run(["callgrind_annotate", "--threshold=100", "--auto=no", path], capture_output=True, text=True).stdout
    m = re.search(r"([\d,]+)\s+\([^)]*\)\s+PROGRAM TOTALS", out)
    return int(m.group(1).replace(",", "")) if m else 0


def run_callgrind(nginx: Nginx, env: dict, ops: int, workdir: str) -> list:
    if not shutil.which("valgrind"):
        return [{"failed": "valgrind not installed"}]
    results = []
    runs = [(name, op, 1) for name, op in CALLGRIND_CLIENTS] + \
        [(name, op, CALLGRIND_CONCURRENCY) for name, op in CALLGRIND_CONCURRENT]
    for name, op, inflight in runs:
        n_ops = ops // 2 if name.startswith("py-") else ops
        warmup = 20
        if inflight > 1:
            # Enough operations that the first and last turns (fewer transfers each) weigh little.
            n_ops, warmup = ops * 10, inflight
        files = {}
        ok = True
        for count in (n_ops, 0):
            out = os.path.join(workdir, f"{name.replace('/', '_')}.{op}.{inflight}.{count}.cg")
            argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"] + CLIENTS[name][0] + [
                "--op", op, "--inflight", str(inflight), "--port", str(nginx.port), "--warmup", str(warmup),
                "--warmup-seconds", "1000", "--ops", str(count), "--seconds", "100000"]
            r = run_client(argv, env, timeout=300)
            if "failed" in r or not os.path.exists(out):
                results.append({"name": name, "op": op, "inflight": inflight, "failed": r.get("failed", "no output")})
                ok = False
                break
            files[count] = out
        if not ok:
            continue
        total, base = callgrind_total(files[n_ops]), callgrind_total(files[0])
        entry = {"name": name, "op": op, "ops": n_ops, "instructions_per_op": (total - base) / n_ops,
                 "startup_instructions": base, "inflight": inflight}
        if (name, op, inflight) in CALLGRIND_PROFILED:
            excl_a, excl_b = callgrind_functions(files[n_ops], False), callgrind_functions(files[0], False)
            incl_a, incl_b = callgrind_functions(files[n_ops], True), callgrind_functions(files[0], True)
            diff = lambda a, b: {k: (a.get(k, 0) - b.get(k, 0)) / n_ops for k in set(a) | set(b)}  # noqa: E731
            entry["exclusive"] = sorted(diff(excl_a, excl_b).items(), key=lambda kv: -kv[1])[:150]
            entry["inclusive"] = sorted(diff(incl_a, incl_b).items(), key=lambda kv: -kv[1])[:250]
        results.append(entry)
        log(f"callgrind {name:<18} {op:<8} {inflight:>4} in flight {entry['instructions_per_op']:>12,.0f} instructions/op")
    return results


# ------------------------------------------------------------------------------------------------
# hearth-emulator under wrk
# ------------------------------------------------------------------------------------------------
def wrk_rate(url: str, body: str, seconds: int, connections: int = 64) -> dict:
    script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)
    script.write('wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
                 f"wrk.body = {json.dumps(body)}\n")
    script.close()
    try:
        p = subprocess.run(on_client_cpu(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-s", script.name, url]),
                           capture_output=True, text=True, timeout=seconds + 30)
    finally:
        os.unlink(script.name)
    m = re.search(r"Requests/sec:\s+([\d.]+)", p.stdout)
    total = re.search(r"(\d+) requests in", p.stdout)
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", p.stdout)
    errors = re.search(r"Socket errors: (.*)", p.stdout)
    return {"rps": float(m.group(1)) if m else 0.0, "non_2xx": int(bad.group(1)) if bad else 0,
            "socket_errors": errors.group(1) if errors else "", "requests": int(total.group(1)) if total else 0,
            "connections": connections}


def run_emulator_bench(nginx: Nginx, rounds: int, seconds: int) -> dict:
    if not shutil.which("wrk"):
        return {"failed": "wrk not installed"}
    if not EMULATOR.exists():
        return {"failed": f"{EMULATOR} not built"}
    emu = Emulator()
    emu.start()
    try:
        key = canned.PASSWORD_KEY
        def post(url: str, body: dict) -> dict:
            req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as r:
                return json.loads(r.read())
        signup = post(f"{emu.url}{canned.PATHS['signUp']}?key={key}",
                      {"email": canned.EMAIL, "password": canned.PASSWORD, "returnSecureToken": True})
        bodies = {
            "signInWithPassword": canned.REQUEST_BODIES["signInWithPassword"],
            "lookup": json.dumps({"idToken": signup["idToken"]}, separators=(",", ":")),
        }
        canned_bodies = {"signInWithPassword": canned.REQUEST_BODIES["signInWithPassword"],
                         "lookup": canned.REQUEST_BODIES["lookup_password"]}
        samples: dict = {"emulator": {"signInWithPassword": [], "lookup": []},
                         "nginx": {"signInWithPassword": [], "lookup": []}}
        for rnd in range(rounds):
            for route in ("signInWithPassword", "lookup"):
                e = wrk_rate(f"{emu.url}{canned.PATHS[route]}?key={key}", bodies[route], seconds)
                c = wrk_rate(f"http://127.0.0.1:{nginx.port}{canned.PATHS[route]}?key={key}", canned_bodies[route], seconds)
                samples["emulator"][route].append(e)
                samples["nginx"][route].append(c)
                log(f"wrk round {rnd + 1} {route:<19} emulator {e['rps']:>9.0f}/s (non-2xx {e['non_2xx']})  "
                    f"nginx {c['rps']:>9.0f}/s")
        # The emulator must take as many connections as the clients keep in flight: one wrk run with that
        # many open at once; every one must connect and every answer be a 200.
        wide = wrk_rate(f"{emu.url}{canned.PATHS['lookup']}?key={key}", bodies["lookup"], seconds, MAX_INFLIGHT)
        wide["open_files_limit"] = open_files_limit(emu.proc.pid)
        log(f"wrk {MAX_INFLIGHT} connections, lookup: emulator {wide['rps']:.0f}/s, non-2xx {wide['non_2xx']}, "
            f"socket errors: {wide['socket_errors'] or 'none'} (open-files limit {wide['open_files_limit']})")
        return {"rounds": samples, "connections": 64, "wrk_threads": 1, "seconds": seconds, "wide": wide}
    finally:
        emu.stop()


# ------------------------------------------------------------------------------------------------
# Compressed answers: Hearth against hearth-emulator with gzip (its default when asked, as Google's
# servers) and with --no-gzip (plain answers), the same client and requests
# ------------------------------------------------------------------------------------------------
COMPRESSION_OPS = [("password", 1), ("password", 16), ("token", 1)]


def wire_bytes(emu: "Emulator", path: str, body: str, content_type: str, gzip_accepted: bool) -> dict:
    """One request's answer as it crosses the wire: status line, headers and body as sent (not inflated)."""
    with socket.create_connection(("127.0.0.1", emu.port), timeout=10) as conn:
        payload = body.encode()
        head = (f"POST {path}?key={canned.PASSWORD_KEY} HTTP/1.1\r\nHost: 127.0.0.1:{emu.port}\r\n"
                f"Content-Type: {content_type}\r\nContent-Length: {len(payload)}\r\n"
                + ("Accept-Encoding: gzip\r\n" if gzip_accepted else "") + "Connection: close\r\n\r\n")
        conn.sendall(head.encode() + payload)
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    headers, _, content = answer.partition(b"\r\n\r\n")
    status = int(headers.split(b" ", 2)[1])
    return {"status": status, "total": len(answer), "body": len(content),
            "gzip": b"content-encoding: gzip" in headers.lower()}


def run_compression_bench(env: dict, rounds: int, seconds: float) -> dict:
    """The cost of gzip answers: Hearth C (host loop) against two hearth-emulators, one compressing when
    asked and one started with --no-gzip, alternating within each round; the client's CPU and latency per
    operation, the emulator's CPU per operation, and each answer's bytes on the wire."""
    if not EMULATOR.exists():
        return {"failed": f"{EMULATOR} not built"}
    servers = {"gzip": Emulator(), "plain": Emulator("--no-gzip")}
    try:
        signed_up: dict = {}
        for mode, emu in servers.items():
            emu.start()
            req = urllib.request.Request(f"{emu.url}{canned.PATHS['signUp']}?key={canned.PASSWORD_KEY}",
                                         data=json.dumps({"email": canned.EMAIL, "password": canned.PASSWORD,
                                                          "returnSecureToken": True}).encode(),
                                         headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=10) as r:
                signed_up[mode] = json.loads(r.read())
        runs: list = []
        for rnd in range(rounds):
            for op, inflight in COMPRESSION_OPS:
                order = ("gzip", "plain") if rnd % 2 == 0 else ("plain", "gzip")
                for mode in order:
                    emu = servers[mode]
                    argv = CLIENTS["hearth-c/host"][0] + [
                        "--op", op, "--inflight", str(inflight), "--port", str(emu.port), "--seconds", str(seconds),
                        "--ops", "200000", "--warmup", str(max(50, inflight)), "--warmup-seconds", "1"]
                    cpu_before = emu.cpu_seconds()
                    r = run_client(argv, env, timeout=90)
                    server_cpu = emu.cpu_seconds() - cpu_before
                    r.update(mode=mode, op=op, inflight=inflight, round=rnd + 1)
                    if "failed" not in r and r.get("completed_total"):
                        # The whole run's server CPU over all the operations it answered (warm-up included).
                        r["server_cpu_us_per_op"] = server_cpu * 1e6 / r["completed_total"]
                    runs.append(r)
                    log(f"compression round {rnd + 1} {mode:<5} {op:<8} n={inflight:<3} " + (
                        f"client {r['cpu_us_per_op']:.1f} us cpu/op, p50 {r['p50_us']:.0f} us, "
                        f"server {r.get('server_cpu_us_per_op', 0):.1f} us cpu/op" if "failed" not in r
                        else f"FAILED {r['failed']}"))
        # What each answer of a sign-in (signInWithPassword + lookup) and a refresh weighs, on the
        # compressing emulator with its own account's tokens.
        id_token = signed_up["gzip"]["idToken"]
        requests_measured = {
            "signInWithPassword": (canned.PATHS["signInWithPassword"], canned.REQUEST_BODIES["signInWithPassword"],
                                   "application/json"),
            "lookup": (canned.PATHS["lookup"], json.dumps({"idToken": id_token}, separators=(",", ":")),
                       "application/json"),
            "token": (canned.PATHS["token"], "grant_type=refresh_token&refresh_token="
                      + urllib.parse.quote(signed_up["gzip"]["refreshToken"], safe=""),
                      "application/x-www-form-urlencoded"),
        }
        wire = {name: {"plain": wire_bytes(servers["gzip"], *spec, gzip_accepted=False),
                       "gzip": wire_bytes(servers["gzip"], *spec, gzip_accepted=True)}
                for name, spec in requests_measured.items()}
        return {"runs": runs, "wire": wire, "ops": [list(o) for o in COMPRESSION_OPS], "seconds": seconds}
    finally:
        for emu in servers.values():
            emu.stop()


# ------------------------------------------------------------------------------------------------
# Sizes
# ------------------------------------------------------------------------------------------------
def closure(path: Path) -> list:
    out = subprocess.run(["ldd", str(path)], capture_output=True, text=True).stdout
    libs = []
    for line in out.splitlines():
        m = re.match(r"\s*(\S+)\s+=>\s+(\S+)\s+\(", line) or re.match(r"\s*(/\S+)\s+\(", line)
        if not m:
            continue
        target = m.group(2) if m.lastindex == 2 else m.group(1)
        if os.path.exists(target):
            real = os.path.realpath(target)
            libs.append({"name": os.path.basename(m.group(1)), "path": real, "bytes": os.path.getsize(real)})
    return libs


def sizes() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        stripped = os.path.join(tmp, "libhearth.so")
        subprocess.run(["strip", "--strip-unneeded", "-o", stripped, str(SNAPSHOT)], check=True)
        stripped_bytes = os.path.getsize(stripped)
    hearth = closure(SNAPSHOT)
    curl_path = next((l["path"] for l in hearth if l["name"].startswith("libcurl")), "/usr/lib/x86_64-linux-gnu/libcurl.so.4")
    curl = closure(Path(curl_path))
    return {"library_bytes": SNAPSHOT.stat().st_size, "stripped_bytes": stripped_bytes, "hearth_closure": hearth,
            "curl_path": curl_path, "curl_bytes": os.path.getsize(curl_path), "curl_closure": curl}


# ------------------------------------------------------------------------------------------------
def machine() -> dict:
    model = ""
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            model = line.split(":", 1)[1].strip()
            break
    top = subprocess.run(["ps", "-eo", "pcpu,comm", "--sort=-pcpu"], capture_output=True, text=True).stdout.splitlines()[1:6]
    return {"nproc": os.cpu_count(), "cpu_model": model, "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
            "kernel": os.uname().release, "loadavg_start": Path("/proc/loadavg").read_text().split()[:3],
            "busiest_processes_at_start": [t.strip() for t in top],
            "nginx": subprocess.run(["nginx", "-v"], capture_output=True, text=True).stderr.strip(),
            "curl": subprocess.run(["curl-config", "--version"], capture_output=True, text=True).stdout.strip()
            if shutil.which("curl-config") else "",
            "python": sys.version.split()[0]}


def provenance() -> dict:
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True).stdout.strip()
    digest = subprocess.run(["sha256sum", str(SNAPSHOT)], capture_output=True, text=True).stdout.split()
    return {"commit": git("rev-parse", "--short", "HEAD"),
            "uncommitted_paths": len([l for l in git("status", "--porcelain").splitlines() if l.strip()]),
            "library": str(LIB.relative_to(ROOT)) if LIB.is_relative_to(ROOT) else str(LIB),
            "library_mtime": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(LIB.stat().st_mtime)),
            "library_sha256": digest[0][:16] if digest else ""}


def python_versions(env: dict) -> dict:
    code = "import requests, httpx; print(requests.__version__, httpx.__version__)"
    out = subprocess.run([PY, "-c", code], env=env, capture_output=True, text=True).stdout.split()
    return {"requests": out[0], "httpx": out[1]} if len(out) == 2 else {}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=int(os.environ.get("BENCH_ROUNDS", "3")))
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("BENCH_SECONDS", "0.5")),
                    help="measurement window per client run")
    ap.add_argument("--callgrind-ops", type=int, default=200)
    ap.add_argument("--quick", action="store_true", help="one round, fewer levels (harness check)")
    ap.add_argument("--levels", default="", help="comma list of operations in flight to run (default 1,16,64,256,1024; "
                    "--quick: 1,64)")
    ap.add_argument("--skip", default="",
                    help="comma list of: matrix,pairs,first,wave,callgrind,emulator,compression")
    ap.add_argument("--out", default=str(HERE / "results.json"))
    args = ap.parse_args()
    # SIGTERM too must stop the servers (the finally below), not leave nginx behind.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    levels = [int(x) for x in args.levels.split(",")] if args.levels else ([1, 64] if args.quick else LEVELS)
    rounds = 1 if args.quick else args.rounds
    skip = set(filter(None, args.skip.split(",")))
    for path, what in ((LIB, "libhearth.so"), (EMULATOR, "hearth-emulator")):
        if not path.exists():
            print(f"bench: {what} is not built ({path}); run `make build` first", file=sys.stderr)
            return 2
    started = time.monotonic()
    files = raise_file_limit()
    if not files["enough"]:
        print(f"bench: RLIMIT_NOFILE {files['soft']} (hard {files['hard']}) is too low for {MAX_INFLIGHT} connections "
              f"in flight; raise it (ulimit -n)", file=sys.stderr)
        return 2
    log("pinned: servers on CPU %s, clients on CPU %s (taskset)" % (PIN["server_cpu"], PIN["client_cpu"])
        if PIN["pinned"] else f"NOT pinned: {PIN['why']}")
    build_clients()
    binding = snapshot_python_binding()
    log(f"Python binding: {binding}")
    env = client_env()
    results: dict = {"machine": machine(), "provenance": dict(provenance(), python_binding=binding),
                     "pinning": {k: v for k, v in PIN.items() if k != "taskset"}, "open_files": files,
                     "python_packages": python_versions(env),
                     "rounds": rounds,
                     "seconds": args.seconds, "levels": levels, "runs": [], "pairs": [], "first": [], "waves": [],
                     "bare": [], "load": []}
    nginx = Nginx(workers=1)
    nginx.start()
    results["nginx_capacity"] = nginx.capacity()
    log(f"nginx (1 worker) on 127.0.0.1:{nginx.port}; {rounds} round(s); accepts "
        f"{results['nginx_capacity']['usable']} connections (worker open files "
        f"{results['nginx_capacity']['worker_open_files']}, worker_connections {canned.WORKER_CONNECTIONS})")
    if not results["nginx_capacity"]["enough"]:
        nginx.stop()
        print(f"bench: nginx cannot accept {MAX_INFLIGHT} connections: {results['nginx_capacity']}", file=sys.stderr)
        return 2
    try:
        results["bare"] = []
        for rnd in range(rounds):
            results["load"].append({"round": rnd + 1, "loadavg": Path("/proc/loadavg").read_text().split()[:3]})
            log(f"round {rnd + 1}/{rounds} (load {' '.join(results['load'][-1]['loadavg'])})")
            if "matrix" not in skip:
                for op in OPS:
                    for n in levels:
                        for name, (_, applies) in CLIENTS.items():
                            if not (applies(op, n, rnd) if name == "py-httpx/async" else applies(op, n)):
                                continue
                            r = measure(nginx, name, op, n, env, args.seconds)
                            r["round"] = rnd + 1
                            results["runs"].append(r)
                            print("  " + status_line(r), flush=True)
            if "pairs" not in skip:
                results["pairs"].extend(run_pairs(nginx, env, args.seconds, rnd + 1))
            if "first" not in skip:
                results["bare"].append(dict(run_client([str(BIN / "bare")], env, 10), round=rnd + 1))
                for name in ["raw-curl/easy", "hearth-c/host", "hearth-c/owned", "hearth-cpp/host", "py-hearth/asyncio",
                             "py-requests/seq", "py-httpx/async"]:
                    r = run_client(CLIENTS[name][0] + ["--first", "--op", "password", "--port", str(nginx.port)], env, 60)
                    r.update(name=name, round=rnd + 1)
                    results["first"].append(r)
                log("first sign-ins: " + ", ".join(
                    f"{r['name']} {r.get('spawn_to_done_us', -1) / 1000:.1f} ms" for r in results["first"][-7:]))
            if "wave" not in skip:
                for name in ["raw-curl/multi", "hearth-c/host", "py-hearth/asyncio"]:
                    argv = CLIENTS[name][0] + ["--op", "password", "--wave", str(WAVE), "--warmup", "50",
                                               "--port", str(nginx.port)]
                    before = nginx.requests()
                    r = run_client(argv, env, 180)
                    r.update(name=name, round=rnd + 1, served_requests=nginx.requests() - before - 1)
                    results["waves"].append(r)
                    log(f"wave {name:<18} " + (f"{r['completed']}/{WAVE} done, {r['bytes_per_op'] / 1024:.1f} KiB/op, "
                                              f"{r['threads']} threads, {r['wave_s']:.2f} s" if "failed" not in r
                                              else f"FAILED {r['failed']}"))
        results["load"].append({"round": "end", "loadavg": Path("/proc/loadavg").read_text().split()[:3]})
        if "callgrind" not in skip:
            with tempfile.TemporaryDirectory(prefix="hearth-bench-cg-") as tmp:
                results["callgrind"] = run_callgrind(nginx, env, args.callgrind_ops, tmp)
        if "emulator" not in skip:
            results["emulator"] = run_emulator_bench(nginx, rounds, 2 if not args.quick else 1)
        if "compression" not in skip:
            results["compression"] = run_compression_bench(env, rounds, max(args.seconds, 1.0))
    finally:
        nginx.stop()
        shutil.rmtree(nginx.prefix, ignore_errors=True)
    results["sizes"] = sizes()
    results["elapsed_s"] = time.monotonic() - started
    Path(args.out).write_text(json.dumps(results, indent=1))
    log(f"raw results in {os.path.relpath(args.out, ROOT)} ({results['elapsed_s']:.0f} s)")
    import report  # noqa: E402  (matplotlib is only needed from here on)
    report.main([args.out])
    return 0


if __name__ == "__main__":
    sys.exit(main())
