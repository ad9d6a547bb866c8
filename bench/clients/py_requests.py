"""Peer: the same REST calls with `requests`, as Python code does it today (pyrebase and friends), at its
strongest.

  --mode seq         one Session, one call after the other (inflight 1)
  --mode per-thread  `inflight` threads, each with a Session of its own (threading.local), each running
                     one operation after the other: the cheapest way to use requests concurrently (no
                     pool lock shared by the threads, no executor queue)
  --mode shared      `inflight` threads sharing one Session whose connection pool holds `inflight`
                     connections (requests' default of 10 would close the rest after each call)

The threads loop on their own rather than through a ThreadPoolExecutor: an executor adds a queue and a
future per call and starts a worker only when none is idle, so it keeps fewer calls in flight than asked.
One operation is what one Hearth operation sends: the token call, then (for sign-ins) accounts:lookup
with the ID token read from the first answer. Answers are parsed with .json(), as an application must.
"""
from __future__ import annotations

import threading
import time

import requests
import requests.adapters

import pybench
from pybench import FORM_HEADERS, JSON_HEADERS, canned, lookup_body


def make_operation(args, session: requests.Session):
    u = pybench.urls(args)

    def check(r: requests.Response) -> dict:
        if r.status_code != 200:
            raise RuntimeError(f"HTTP {r.status_code}")
        return r.json()

    def sign_in(url: str, body: str) -> str:
        tokens = check(session.post(url, data=body, headers=JSON_HEADERS, timeout=30))
        account = check(session.post(u["lookup"], data=lookup_body(tokens["idToken"]), headers=JSON_HEADERS, timeout=30))
        return account["users"][0]["localId"]

    if args.op == "anon":
        return lambda: sign_in(u["signUp"], canned.REQUEST_BODIES["signUp"])
    if args.op == "password":
        return lambda: sign_in(u["signInWithPassword"], canned.REQUEST_BODIES["signInWithPassword"])
    return lambda: check(session.post(u["token"], data=canned.REQUEST_BODIES["token"], headers=FORM_HEADERS,
                                      timeout=30))["id_token"]


def new_session(pool_size: int) -> requests.Session:
    session = requests.Session()
    adapter = requests.adapters.HTTPAdapter(pool_connections=1, pool_maxsize=max(10, pool_size))
    session.mount("http://", adapter)
    return session


def loop(run: pybench.Run, operation) -> None:
    while True:
        start = run.start()
        if start is None:
            return
        error = None
        try:
            operation()
        except Exception as e:  # noqa: BLE001 - counted, not raised
            error = e
        if not run.complete(start, error):
            return


def main() -> None:
    main_ns = time.monotonic_ns()
    args = pybench.parse("seq")
    if args.mode not in ("seq", "per-thread", "shared"):
        raise SystemExit(f"py_requests: unknown --mode {args.mode}")
    if args.mode == "seq" and args.inflight != 1:
        raise SystemExit("py_requests: --mode seq is sequential (--inflight 1)")
    if args.first:
        operation = make_operation(args, new_session(1))
        issue = time.monotonic_ns()
        error = None
        try:
            operation()
        except Exception as e:  # noqa: BLE001 - reported, not raised
            error = e
        pybench.report_first(args, "py-requests", main_ns, issue, time.monotonic_ns(), error)
        return
    run = pybench.Run(args)
    requests_per_op = 1 if args.op == "token" else 2
    if args.mode == "seq":
        loop(run, make_operation(args, new_session(1)))
        run.report("py-requests", requests_per_op)
        return
    shared = new_session(args.inflight) if args.mode == "shared" else None
    # Every thread is started before any operation: with hundreds of threads, starting them one by one
    # while the first ones already run takes seconds (each start waits for the GIL), and the window
    # would see fewer operations in flight than asked.
    ready = threading.Barrier(args.inflight + 1)

    def worker() -> None:
        # per-thread: the Session is made in the thread that uses it, as a threading.local would.
        operation = make_operation(args, shared if shared is not None else new_session(1))
        ready.wait()
        loop(run, operation)

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(args.inflight)]
    for t in threads:
        t.start()
    ready.wait()
    run.closed.wait(300)
    run.report("py-requests", requests_per_op)
    pybench.exit_now()


if __name__ == "__main__":
    main()
