"""Peer: the same REST calls with `httpx.AsyncClient` on asyncio: `inflight` tasks share one client whose
pool allows `inflight` connections (httpx's default of 100 would queue the rest and time out at 1024).
One operation as in py_requests.py; answers parsed with .json()."""
from __future__ import annotations

import asyncio
import time

import httpx

import pybench
from pybench import FORM_HEADERS, JSON_HEADERS, canned, lookup_body


def make_operation(args, client: httpx.AsyncClient):
    u = pybench.urls(args)

    def check(r: httpx.Response) -> dict:
        if r.status_code != 200:
            raise RuntimeError(f"HTTP {r.status_code}")
        return r.json()

    async def sign_in(url: str, body: str) -> str:
        tokens = check(await client.post(url, content=body, headers=JSON_HEADERS))
        account = check(await client.post(u["lookup"], content=lookup_body(tokens["idToken"]), headers=JSON_HEADERS))
        return account["users"][0]["localId"]

    async def token() -> str:
        return check(await client.post(u["token"], content=canned.REQUEST_BODIES["token"], headers=FORM_HEADERS))["id_token"]

    if args.op == "anon":
        return lambda: sign_in(u["signUp"], canned.REQUEST_BODIES["signUp"])
    if args.op == "password":
        return lambda: sign_in(u["signInWithPassword"], canned.REQUEST_BODIES["signInWithPassword"])
    return token


async def amain(args, main_ns: int) -> None:
    limits = httpx.Limits(max_connections=max(args.inflight, args.wave, 1),
                          max_keepalive_connections=max(args.inflight, args.wave, 1))
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(60.0)) as client:
        operation = make_operation(args, client)
        if args.first:
            issue = time.monotonic_ns()
            error = None
            try:
                await operation()
            except Exception as e:  # noqa: BLE001 - reported, not raised
                error = e
            pybench.report_first(args, "py-httpx", main_ns, issue, time.monotonic_ns(), error)
            return
        run = pybench.Run(args)
        closed = asyncio.Event()

        async def worker() -> None:
            while True:
                start = run.start()
                if start is None:
                    return
                error = None
                try:
                    await operation()
                except Exception as e:  # noqa: BLE001
                    error = e
                if not run.complete(start, error):
                    closed.set()
                    return

        tasks = [asyncio.create_task(worker()) for _ in range(args.inflight)]
        await closed.wait()
        run.report("py-httpx", 1 if args.op == "token" else 2, pending_tasks=sum(not t.done() for t in tasks))
        pybench.exit_now()


def main() -> None:
    main_ns = time.monotonic_ns()
    args = pybench.parse("async")
    asyncio.run(amain(args, main_ns))


if __name__ == "__main__":
    main()
