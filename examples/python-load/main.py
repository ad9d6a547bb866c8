"""A load test: N bot users sign up, then sign in concurrently, with a progress bar and a summary.

    make examples                                     (200 bots against a fresh hearth-emulator)
    scripts/with-emulator python3 examples/python-load/main.py --users 5000 --concurrency 64

Each of ``--concurrency`` workers owns a ``hearth.App`` (one signed-in user and one Hearth loop
thread each) and plays bot after bot: sign up (phase 1), then sign in and force an ID-token refresh
(phase 2), all driven by asyncio. ``--wrong-passwords K`` makes the first K bots mistype their
password, to show how failures appear in the table.

Run it against hearth-emulator or a Firebase Auth emulator (FIREBASE_AUTH_EMULATOR_HOST), not a
production project: Firebase rate-limits account creation per IP address and bills Identity Platform
usage. The exit status is 1 when any operation fails other than the deliberate wrong passwords.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import math
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Awaitable, Callable, Counter, Dict, List, Optional, TextIO

import hearth

API_KEY = "example-api-key"
PROJECT = "demo-hearth"
PASSWORD = "bot-password-123"


@dataclass
class Bot:
    index: int
    email: str
    password: str
    mistypes: bool  # signs in with a wrong password (--wrong-passwords)


@dataclass
class Operation:
    """What one kind of request did: latencies of the successes, failures by error."""

    name: str
    latencies: List[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=collections.Counter)
    seconds: float = 0.0  # wall time of the phase that ran it

    def record(self, started: float, error: Optional[str]) -> None:
        if error is None:
            self.latencies.append(time.perf_counter() - started)
        else:
            self.errors[error] += 1


# ---------------------------------------------------------------------------------------------------
# Progress bar: redrawn in place on a terminal, a line per quarter otherwise (logs, CI)
# ---------------------------------------------------------------------------------------------------
class Progress:
    WIDTH = 30

    def __init__(self, label: str, total: int, stream: TextIO = sys.stderr) -> None:
        self.label, self.total, self.stream = label, total, stream
        self.done = 0
        self.started = time.perf_counter()
        self.interactive = stream.isatty()
        self.last_draw = 0.0
        self.next_quarter = 1

    def advance(self) -> None:
        self.done += 1
        now = time.perf_counter()
        if self.interactive:
            if now - self.last_draw >= 0.1 or self.done == self.total:
                self.last_draw = now
                self.stream.write("\r" + self.line(now))
                if self.done == self.total:
                    self.stream.write("\n")
                self.stream.flush()
        elif self.done * 4 >= self.next_quarter * self.total:
            while self.done * 4 >= self.next_quarter * self.total and self.next_quarter <= 4:
                self.next_quarter += 1
            self.stream.write(self.line(now) + "\n")
            self.stream.flush()

    def line(self, now: float) -> str:
        filled = self.WIDTH * self.done // max(1, self.total)
        rate = self.done / max(now - self.started, 1e-9)
        return (f"{self.label:<10} [{'#' * filled}{'.' * (self.WIDTH - filled)}] "
                f"{self.done:>{len(str(self.total))}}/{self.total} {100 * self.done // max(1, self.total):>3}% "
                f"{rate:8.0f} bots/s")


# ---------------------------------------------------------------------------------------------------
# The bots' work
# ---------------------------------------------------------------------------------------------------
def error_label(error: BaseException) -> str:
    if isinstance(error, hearth.AuthError):
        return f"{error.name} ({int(error.code)})"
    if isinstance(error, asyncio.TimeoutError):
        return "client timeout"
    return type(error).__name__


async def timed(operation: Operation, request: Awaitable[object], timeout: float) -> bool:
    """Awaits one request and records it; True when it succeeded."""
    started = time.perf_counter()
    try:
        await asyncio.wait_for(request, timeout)
    except (hearth.AuthError, asyncio.TimeoutError) as error:
        operation.record(started, error_label(error))
        return False
    operation.record(started, None)
    return True


async def sign_up(auth: hearth.Auth, bot: Bot, ops: Dict[str, Operation], timeout: float) -> None:
    auth.sign_out()  # the worker's previous bot
    await timed(ops["sign-up"], auth.create_user_with_email_and_password(bot.email, bot.password), timeout)


async def sign_in(auth: hearth.Auth, bot: Bot, ops: Dict[str, Operation], timeout: float) -> None:
    auth.sign_out()
    password = "mistyped-" + bot.password if bot.mistypes else bot.password
    if not await timed(ops["sign-in"], auth.sign_in_with_email_and_password(bot.email, password), timeout):
        return
    user = auth.current_user
    if user is None:
        ops["get-token"].record(time.perf_counter(), "no current user after sign-in")
        return
    # A forced refresh is a request to the token endpoint, as a long session makes once an hour.
    await timed(ops["get-token"], user.get_token(force_refresh=True), timeout)


Step = Callable[[hearth.Auth, Bot, Dict[str, Operation], float], Awaitable[None]]


async def run_phase(label: str, step: Step, bots: List[Bot], apps: List[hearth.App],
                    ops: Dict[str, Operation], names: List[str], timeout: float) -> None:
    """Every bot takes `step` once; each worker (one App) serves bots one after another."""
    queue: "asyncio.Queue[Bot]" = asyncio.Queue()
    for bot in bots:
        queue.put_nowait(bot)
    progress = Progress(label, len(bots))

    async def worker(app: hearth.App) -> None:
        while not queue.empty():
            await step(app.auth, queue.get_nowait(), ops, timeout)
            progress.advance()

    started = time.perf_counter()
    await asyncio.gather(*(worker(app) for app in apps))
    for name in names:
        ops[name].seconds = time.perf_counter() - started


# ---------------------------------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------------------------------
def percentile(sorted_values: List[float], fraction: float) -> float:
    """Nearest-rank percentile of sorted values (0 when empty)."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def print_summary(ops: Dict[str, Operation], users: int, concurrency: int) -> None:
    print(f"\n{users} bots, {concurrency} concurrent clients, Hearth {hearth.library_version()}")
    header = f"{'operation':<10} {'ok':>7} {'errors':>7} {'ops/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
    print(header)
    print("-" * len(header))
    for op in ops.values():
        latencies = sorted(op.latencies)
        total = len(latencies) + sum(op.errors.values())
        rate = total / op.seconds if op.seconds > 0 else 0.0
        print(f"{op.name:<10} {len(latencies):>7} {sum(op.errors.values()):>7} {rate:>9.0f} "
              f"{percentile(latencies, 0.50) * 1e3:>8.2f} {percentile(latencies, 0.99) * 1e3:>8.2f} "
              f"{(latencies[-1] if latencies else 0.0) * 1e3:>8.2f}")
    errors = [(op.name, label, count) for op in ops.values() for label, count in op.errors.most_common()]
    print("\nerrors by code:" + ("" if errors else " none"))
    for name, label, count in errors:
        print(f"  {name:<10} {label:<40} {count:>6}")


def unexpected_failures(ops: Dict[str, Operation], wrong_passwords: int) -> List[str]:
    """Everything that failed other than the deliberately mistyped passwords (which must fail)."""
    problems = []
    for op in ops.values():
        for label, count in op.errors.items():
            deliberate = op.name == "sign-in" and label.startswith(("WRONG_PASSWORD", "INVALID_CREDENTIAL"))
            if not deliberate:
                problems.append(f"{op.name}: {count} x {label}")
    mistyped_failures = sum(count for label, count in ops["sign-in"].errors.items()
                            if label.startswith(("WRONG_PASSWORD", "INVALID_CREDENTIAL")))
    if mistyped_failures != wrong_passwords:
        problems.append(f"sign-in: {mistyped_failures} wrong-password failures, expected {wrong_passwords}")
    return problems


# ---------------------------------------------------------------------------------------------------
async def main(args: argparse.Namespace) -> int:
    bots = [Bot(i, f"bot-{os.getpid()}-{i}@example.com", PASSWORD, i < args.wrong_passwords)
            for i in range(args.users)]
    ops = {name: Operation(name) for name in ("sign-up", "sign-in", "get-token")}
    # One App per concurrent client: an App has one signed-in user, like one game client.
    apps = [hearth.App(api_key=API_KEY, project_id=PROJECT, app_name=f"load-{n}", persistence="none")
            for n in range(min(args.concurrency, args.users))]
    try:
        await run_phase("sign-up", sign_up, bots, apps, ops, ["sign-up"], args.timeout)
        await run_phase("sign-in", sign_in, bots, apps, ops, ["sign-in", "get-token"], args.timeout)
    finally:
        for app in apps:
            app.close()

    print_summary(ops, args.users, len(apps))
    problems = unexpected_failures(ops, args.wrong_passwords)
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    if not problems:
        print("OK")
    return 1 if problems else 0


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=200, help="number of bot users (default 200)")
    parser.add_argument("--concurrency", type=int, default=32,
                        help="clients (Hearth apps) working at once (default 32)")
    parser.add_argument("--wrong-passwords", type=int, default=0, metavar="K",
                        help="the first K bots sign in with a wrong password (default 0)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per request (default 30)")
    args = parser.parse_args()
    if args.users < 1 or args.concurrency < 1:
        parser.error("--users and --concurrency must be at least 1")
    if not 0 <= args.wrong_passwords <= args.users:
        parser.error("--wrong-passwords must be between 0 and --users")
    if not os.environ.get("FIREBASE_AUTH_EMULATOR_HOST"):
        parser.error("FIREBASE_AUTH_EMULATOR_HOST is not set: run it against an emulator "
                     "(`make examples` starts hearth-emulator)")
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_arguments())))
