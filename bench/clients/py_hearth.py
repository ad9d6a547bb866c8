"""Hearth from Python (bindings/python, HEARTH_LIBRARY) on asyncio: `inflight` tasks await Hearth futures.

The binding runs each App on a Hearth loop thread of its own. Password sign-ins share one app; anonymous
sign-ups and get_token(force) need one app (so one loop thread) per operation in flight, as in
hearth_c.c.
"""
from __future__ import annotations

import asyncio
import time

import pybench
from pybench import canned

import hearth  # noqa: E402  (bindings/python on PYTHONPATH)


def make_app(args, index: int) -> hearth.App:
    app = hearth.App(api_key=canned.ANON_KEY if args.op == "anon" else canned.PASSWORD_KEY,
                     app_name=f"bench-{index}", persistence="none")
    app.auth.use_emulator(args.host, args.port)
    return app


def make_operation(args, auth: hearth.Auth):
    if args.op == "anon":
        async def anon() -> str:
            auth.sign_out()
            return (await auth.sign_in_anonymously()).user.uid
        return anon
    if args.op == "password":
        async def password() -> str:
            return (await auth.sign_in_with_email_and_password(canned.EMAIL, canned.PASSWORD)).user.uid
        return password
    user = auth.current_user

    async def token() -> str:
        return await user.get_token(force_refresh=True)
    return token


async def amain(args, main_ns: int) -> None:
    if args.first:
        app = make_app(args, 0)
        issue = time.monotonic_ns()
        error = None
        try:
            await app.auth.sign_in_with_email_and_password(canned.EMAIL, canned.PASSWORD)
        except Exception as e:  # noqa: BLE001 - reported, not raised
            error = e
        pybench.report_first(args, "py-hearth", main_ns, issue, time.monotonic_ns(), error)
        app.close()
        return
    per_slot = args.op != "password"
    apps = [make_app(args, i) for i in range(args.inflight if per_slot else 1)]
    setup = 0
    if args.op == "token":
        for app in apps:
            await app.auth.sign_in_with_email_and_password(canned.EMAIL, canned.PASSWORD)
            setup += 2
    operations = [make_operation(args, apps[i if per_slot else 0].auth) for i in range(args.inflight)]
    run = pybench.Run(args)
    if args.wave:
        # Warm-up, then `wave` sign-ins started at once on one app; all must complete.
        for _ in range(max(1, args.warmup)):
            await operations[0]()
        before = pybench.status_kib("VmRSS:")
        pybench.reset_peak_rss()
        t0 = time.monotonic_ns()
        results = await asyncio.gather(*(operations[0]() for _ in range(args.wave)), return_exceptions=True)
        errors = sum(1 for r in results if isinstance(r, BaseException))
        pybench.report_wave(args, "py-hearth", len(results), errors, before, (time.monotonic_ns() - t0) / 1e9)
    else:
        closed = asyncio.Event()

        async def worker(operation) -> None:
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

        tasks = [asyncio.create_task(worker(op)) for op in operations]
        await closed.wait()
        run.report("py-hearth", 1 if args.op == "token" else 2, setup, apps=len(apps))
        await asyncio.gather(*tasks)
    for app in apps:
        app.close()


def main() -> None:
    main_ns = time.monotonic_ns()
    args = pybench.parse("asyncio")
    asyncio.run(amain(args, main_ns))


if __name__ == "__main__":
    main()
