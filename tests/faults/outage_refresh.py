#!/usr/bin/env python3
"""Token refresh through a network outage, with the library's real timers (minutes of wall time).

    outage_refresh.py [--outage SECONDS] [--kinds reset,stall,503] [--request-timeout SECONDS]

Needs the emulator (run it through scripts/with-emulator; `make test-faults-long` does). For each
kind of outage, in parallel, a child process of its own (so that its CPU figure is the client's alone):

1. starts a fault proxy (fault_proxy.py, another process) in front of the emulator, and an app that
   talks through it with a file-persisted session, and signs a new user up;
2. starts the outage (every request: ``reset`` - the connection is reset; ``stall`` - never answered,
   so each attempt runs out its request timeout; ``503`` - the server answers 503) and asks for a
   forced token refresh, which fails: from then on only the library's backoff timer refreshes;
3. ends the outage after --outage seconds and waits for the next backoff step to recover.

Checked (exit status 1 if any check fails; the figures are printed as JSON and as a table):

- backoff as designed: every retry waits 30 s doubling to 16 min, +-10 % (TokenRefreshPolicy),
  counted from the end of the failed attempt; the number of attempts is within what that schedule
  allows, each attempt is at most 2 requests (curl resends once when a reused keep-alive connection
  dies before answering), and nothing but token refreshes is sent;
- client CPU during the outage < 1 % of one core (getrusage of the client process);
- the session is kept throughout: the user stays signed in (checked every second), no auth-state
  listener sees a sign-out, and the persisted session still loads in a new app afterwards;
- recovery within one backoff step of the outage's end: the first retry after it succeeds, the new
  token is then served from the cache (no request), and no further request follows for 10 s.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from typing import Any, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
INITIAL_BACKOFF = 30.0
MAXIMUM_BACKOFF = 16 * 60.0
JITTER = 0.10
#: Timer and scheduling slack around each expected instant, in seconds.
SLACK = 1.5
QUIET_AFTER_RECOVERY = 10.0


def backoff(attempt: int) -> float:
    """The designed wait before retry `attempt` (1-based), without jitter."""
    return min(MAXIMUM_BACKOFF, INITIAL_BACKOFF * 2 ** (attempt - 1))


def attempts_possible(outage: float, failure_takes: float) -> Tuple[int, int]:
    """(fewest, most) refresh attempts that start inside an outage of `outage` seconds, the first at 0."""
    def count(scale: float) -> int:
        start, attempts = 0.0, 0
        while start < outage:
            attempts += 1
            start += failure_takes + backoff(attempts) * scale
        return attempts
    return count(1 + JITTER), count(1 - JITTER)


# ---------------------------------------------------------------------------------------------------
# The proxy, in a process of its own
# ---------------------------------------------------------------------------------------------------


class ProxyProcess:
    def __init__(self, upstream: str) -> None:
        self.process = subprocess.Popen([sys.executable, os.path.join(HERE, "fault_proxy.py"), "--upstream", upstream],
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        line = self.process.stdout.readline().split()
        if len(line) != 6 or line[:3] != ["fault-proxy", "listening", "on"]:
            raise RuntimeError(f"the fault proxy did not start: {line}")
        self.port, self.control = int(line[3]), int(line[5])

    def command(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"http://127.0.0.1:{self.control}{path}", data=data, method=method)
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def records(self) -> List[Dict[str, Any]]:
        return list(self.command("GET", "/log")["records"])

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(10)


FAULTS = {
    "reset": {"kind": "reset"},
    "stall": {"kind": "stall"},
    "503": {"kind": "respond", "status": 503, "content_type": None},
}


# ---------------------------------------------------------------------------------------------------
# One outage (child process)
# ---------------------------------------------------------------------------------------------------


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_outage(kind: str, outage: float, request_timeout: float) -> Dict[str, Any]:
    import hearth  # here: the parent process never loads the library

    upstream = os.environ.get("HEARTH_EMULATOR_URL") or "http://" + os.environ["FIREBASE_AUTH_EMULATOR_HOST"]
    proxy = ProxyProcess(upstream)
    directory = tempfile.mkdtemp(prefix="hearth-outage-")
    name = f"outage-{kind}-{os.getpid()}"
    checks: Dict[str, bool] = {}
    figures: Dict[str, Any] = {"kind": kind, "outage_s": outage, "request_timeout_s": request_timeout}
    try:
        app = hearth.App(api_key="fake-api-key", project_id="demo-hearth", persistence="file",
                         persistence_dir=directory, app_name=name, request_timeout=request_timeout)
        auth = app.auth
        auth.use_emulator("127.0.0.1", proxy.port)
        email = f"outage-{uuid.uuid4().hex[:12]}@example.com"
        user = auth.create_user_with_email_and_password(email, "correct horse battery").result(timeout=30).user
        uid, first_token = user.uid, user.get_token().result(timeout=30)
        sign_outs: List[float] = []
        token_changes: List[float] = []
        auth.add_auth_state_listener(lambda u: sign_outs.append(time.monotonic()) if u is None else None)
        auth.add_id_token_listener(lambda u: token_changes.append(time.monotonic()))
        time.sleep(1.0)  # the listeners' initial calls
        token_changes.clear()
        threads_before = len(os.listdir("/proc/self/task"))
        proxy.command("POST", "/reset-log")

        # The outage.
        proxy.command("POST", "/rules", {"fault": FAULTS[kind]})
        started, cpu_started = time.monotonic(), cpu_seconds()
        forced = user.get_token(force_refresh=True).exception(timeout=request_timeout + 30)
        figures["forced_refresh_error"] = forced.code.name if forced else None
        signed_out_during = 0
        max_threads = threads_before
        while time.monotonic() < started + outage:
            time.sleep(1.0)
            current = auth.current_user
            if current is None or current.uid != uid:
                signed_out_during += 1
            max_threads = max(max_threads, len(os.listdir("/proc/self/task")))
        proxy.command("POST", "/clear")
        ended, cpu_ended = time.monotonic(), cpu_seconds()

        # Recovery: the next backoff step after the last failed attempt.
        failure_takes = request_timeout if kind == "stall" else 0.0
        most_attempts = attempts_possible(outage, failure_takes)[1]
        deadline = ended + failure_takes + backoff(most_attempts) * (1 + JITTER) + 2 * SLACK
        recovered_at: Optional[float] = None
        while recovered_at is None and time.monotonic() < deadline:
            time.sleep(0.5)
            for record in proxy.records():
                if "securetoken" in record["path"] and record["status"] == 200:
                    recovered_at = record["at"]
                    break
        time.sleep(0.5)
        cached = auth.current_user.get_token().result(timeout=10) if auth.current_user else None
        requests_at_recovery = len(proxy.records())
        time.sleep(QUIET_AFTER_RECOVERY)
        records = proxy.records()
        finished, cpu_finished = time.monotonic(), cpu_seconds()
        app.close()
        with hearth.App(api_key="fake-api-key", project_id="demo-hearth", persistence="file",
                        persistence_dir=directory, app_name=name) as reader:
            stored = reader.auth.current_user
            persisted_uid = stored.uid if stored else None
    finally:
        proxy.close()

    # Figures.
    refreshes = [r for r in records if "securetoken" in r["path"]]
    during_requests = [r for r in refreshes if r["at"] < ended]
    # One refresh attempt may be two requests an instant apart: curl resends a request once on a
    # fresh connection when a reused keep-alive connection dies before any answer byte.
    during: List[Dict[str, Any]] = []
    for record in during_requests:
        if not during or record["at"] - during[-1]["at"] > 1.0:
            during.append(record)
    starts = [r["at"] - started for r in during]
    gaps = [round(b - a - failure_takes, 2) for a, b in zip(starts, starts[1:])]
    fewest, most = attempts_possible(outage, failure_takes)
    figures.update({
        "attempts_during_outage": len(during),
        "requests_during_outage": len(during_requests),
        "attempts_allowed": [fewest, most],
        "attempt_times_s": [round(s, 2) for s in starts],
        "waits_between_attempts_s": gaps,
        "designed_waits_s": [backoff(k) for k in range(1, len(gaps) + 1)],
        "other_requests": sorted({r["path"].split("?")[0] for r in records if "securetoken" not in r["path"]}),
        "cpu_s_during_outage": round(cpu_ended - cpu_started, 3),
        "cpu_percent_of_core_during_outage": round(100 * (cpu_ended - cpu_started) / (ended - started), 4),
        "cpu_percent_of_core_whole_run": round(100 * (cpu_finished - cpu_started) / (finished - started), 4),
        "threads_before_and_max_during": [threads_before, max_threads],
        "signed_out_checks_failed": signed_out_during,
        "auth_state_sign_outs": len(sign_outs),
        "persisted_user_kept": persisted_uid == uid,
        "recovered_s_after_outage": round(recovered_at - ended, 2) if recovered_at else None,
        "recovery_allowed_s": round(deadline - ended, 2),
        "requests_after_recovery_quiet_period": len(records) - requests_at_recovery,
        "id_token_changes": len(token_changes),
        "total_requests": len(records),
    })
    last_failure = (during[-1]["at"] + failure_takes) if during else started
    checks["forced refresh failed transiently"] = figures["forced_refresh_error"] in (
        "NETWORK_REQUEST_FAILED", "FAILURE")
    checks["every wait is 30 s doubling, +-10 %"] = all(
        backoff(k) * (1 - JITTER) - SLACK <= gap <= backoff(k) * (1 + JITTER) + SLACK for k, gap in enumerate(gaps, 1))
    checks["attempt count within the schedule"] = fewest <= len(during) <= most
    checks["at most 2 requests per attempt"] = len(during_requests) <= 2 * len(during)
    checks["only token refreshes were sent"] = not figures["other_requests"]
    checks["client CPU < 1 % of a core"] = figures["cpu_percent_of_core_during_outage"] < 1.0
    checks["no thread per retry"] = max_threads == threads_before
    checks["user stayed signed in"] = signed_out_during == 0 and not sign_outs
    checks["persisted session kept"] = bool(figures["persisted_user_kept"])
    checks["recovered at the next backoff step"] = recovered_at is not None and (
        backoff(len(during)) * (1 - JITTER) - SLACK <= recovered_at - last_failure
        <= backoff(len(during)) * (1 + JITTER) + SLACK)
    checks["one request recovers, then quiet"] = (
        len([r for r in refreshes if r["at"] >= ended]) == 1 and figures["requests_after_recovery_quiet_period"] == 0)
    checks["new token served from cache"] = cached is not None and cached != first_token and len(token_changes) == 1
    figures["checks"] = checks
    return figures


# ---------------------------------------------------------------------------------------------------
# Parent: one child per kind, in parallel
# ---------------------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--outage", type=float, default=180.0, help="seconds of outage (default 180)")
    parser.add_argument("--kinds", default="reset,stall", help="comma-separated: reset, stall, 503")
    parser.add_argument("--request-timeout", type=float, default=10.0)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child:
        print(json.dumps(run_outage(args.child, args.outage, args.request_timeout)), flush=True)
        return 0

    kinds = [kind.strip() for kind in args.kinds.split(",") if kind.strip()]
    unknown = [kind for kind in kinds if kind not in FAULTS]
    if unknown or not kinds:
        parser.error(f"unknown outage kinds: {unknown}")
    children = {kind: subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child", kind, "--outage",
                                        str(args.outage), "--request-timeout", str(args.request_timeout)],
                                       stdout=subprocess.PIPE, text=True) for kind in kinds}
    results: Dict[str, Dict[str, Any]] = {}
    failed = False
    for kind, child in children.items():
        out, _ = child.communicate()
        if child.returncode != 0 or not out.strip():
            print(f"outage {kind}: the child failed (exit {child.returncode})", file=sys.stderr)
            failed = True
            continue
        results[kind] = json.loads(out.strip().splitlines()[-1])

    for kind, figures in results.items():
        print(f"\n== outage '{kind}' for {figures['outage_s']:.0f} s "
              f"(request timeout {figures['request_timeout_s']:.0f} s) ==")
        for key, value in figures.items():
            if key != "checks":
                print(f"  {key}: {value}")
        for check, passed in figures["checks"].items():
            print(f"  [{'PASS' if passed else 'FAIL'}] {check}")
            failed |= not passed
    print("\n" + json.dumps(results))
    print("outage_refresh: " + ("FAILED" if failed else "all checks passed"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
