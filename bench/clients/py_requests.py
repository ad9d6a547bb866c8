"""Peer: the same REST calls with `requests`, as Python code does it today (pyrebase and friends).

  --mode seq    one Session, one call after the other (inflight 1)
  --mode pool   a ThreadPoolExecutor with `inflight` workers sharing one Session whose connection pool
                holds `inflight` connections (requests' default of 10 would close the rest after each
                call); each finished call submits the next

One operation is what one Hearth operation sends: the token call, then (for sign-ins) accounts:lookup
with the ID token read from the first answer. Answers are parsed with .json(), as an application must.
"""
from __future__ import annotations

import concurrent.futures
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


def main() -> None:
    main_ns = time.monotonic_ns()
    args = pybench.parse("seq")
    session = new_session(args.inflight if args.mode == "pool" else 1)
    operation = make_operation(args, session)
    if args.first:
        issue = time.monotonic_ns()
        error = None
        try:
            operation()
        except Exception as e:  # noqa: BLE001 - reported, not raised
            error = e
        pybench.report_first(args, "py-requests", main_ns, issue, time.monotonic_ns(), error)
        return
    run = pybench.Run(args)
    if args.mode == "seq":
        while True:
            start = run.start()
            error = None
            try:
                operation()
            except Exception as e:  # noqa: BLE001
                error = e
            if not run.complete(start, error):
                break
    else:
        executor = concurrent.futures.ThreadPoolExecutor(max_workers=args.inflight)

        def submit() -> None:
            start = run.start()
            future = executor.submit(operation)
            future.add_done_callback(lambda f: finished(start, f))

        def finished(start: int, f: concurrent.futures.Future) -> None:
            if run.complete(start, f.exception()):
                submit()

        for _ in range(args.inflight):
            submit()
        run.closed.wait(300)
        run.report("py-requests", 1 if args.op == "token" else 2)
        pybench.exit_now()
    run.report("py-requests", 1 if args.op == "token" else 2)


if __name__ == "__main__":
    main()
