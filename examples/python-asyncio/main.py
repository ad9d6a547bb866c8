"""Hearth with asyncio: await sign-ins, run several at once with gather, follow the auth state.

    make examples        (runs this against a fresh hearth-emulator)

Every Hearth operation returns a ``hearth.Future`` at once. ``await`` suspends the coroutine until it
finishes without blocking the event loop (the work runs on Hearth's own loop thread), and failures
raise ``hearth.AuthError`` subclasses. Listeners run on Hearth's thread, not the event loop's: hand
what they see to the event loop with ``loop.call_soon_threadsafe``.

Exits with status 1 if anything does not go as described.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import List, Optional

import hearth

API_KEY = "example-api-key"  # any key works against the emulator; use your Web API key in production
PROJECT = "demo-hearth"


def check(condition: bool, what: str) -> None:
    if not condition:
        print(f"FAILED: {what}", file=sys.stderr)
        raise SystemExit(1)


def new_app(name: str) -> hearth.App:
    # persistence="none": nothing is written to disk. An application keeps the default ("file"), so the
    # player stays signed in across runs. FIREBASE_AUTH_EMULATOR_HOST routes the app to the emulator.
    return hearth.App(api_key=API_KEY, project_id=PROJECT, app_name=name, persistence="none")


async def heartbeat(ticks: List[int]) -> None:
    """Stands for the rest of the program: it keeps running while sign-ins are awaited."""
    while True:
        await asyncio.sleep(0.001)
        ticks[0] += 1


async def main() -> None:
    check(bool(os.environ.get("FIREBASE_AUTH_EMULATOR_HOST")),
          "FIREBASE_AUTH_EMULATOR_HOST is not set (run `make examples`, which starts hearth-emulator)")
    loop = asyncio.get_running_loop()
    email = f"grace-{os.getpid()}@example.com"
    password = "compiler-1952"

    with new_app("asyncio-main") as app:
        auth = app.auth

        # ---- A listener, bridged to the event loop -------------------------------------------------
        # It runs on Hearth's loop thread; call_soon_threadsafe moves each event to this event loop.
        states: "asyncio.Queue[Optional[str]]" = asyncio.Queue()

        def on_auth_state(user: Optional[hearth.User]) -> None:
            loop.call_soon_threadsafe(states.put_nowait, user.email if user else None)

        listener = auth.add_auth_state_listener(on_auth_state)
        check(await asyncio.wait_for(states.get(), 10) is None, "the listener first reports 'signed out'")

        # ---- await one operation at a time ---------------------------------------------------------
        print("1. await create_user_with_email_and_password")
        ticks = [0]
        beat = asyncio.create_task(heartbeat(ticks))
        result = await auth.create_user_with_email_and_password(email, password)
        print(f"   created {result.user.email} (new user: {result.additional_user_info.is_new_user})")
        check(await asyncio.wait_for(states.get(), 10) == email, "the listener reports the new user")

        # ---- gather: several operations of one user at once ----------------------------------------
        print("2. gather(get_token, update_profile)")
        user = result.user
        token, updated = await asyncio.gather(user.get_token(), user.update_profile(display_name="Grace Hopper"))
        print(f"   ID token: {len(token)} characters; display name: {updated.display_name}")
        check(updated.display_name == "Grace Hopper", "update_profile returns the updated user")

        # ---- Failures raise; asyncio.wait_for bounds the wait ----------------------------------------
        print("3. a wrong password raises")
        auth.sign_out()
        check(await asyncio.wait_for(states.get(), 10) is None, "the listener reports the sign-out")
        try:
            await asyncio.wait_for(auth.sign_in_with_email_and_password(email, "not-the-password"), timeout=10)
            check(False, "a wrong password must not sign in")
        except (hearth.WrongPasswordError, hearth.InvalidCredentialError) as error:
            print(f"   {type(error).__name__}: {error.name} ({int(error.code)}): {error.message}")
        check(auth.current_user is None, "a failed sign-in leaves nobody signed in")

        # ---- gather across apps: each player in an App of their own -----------------------------------
        print("4. gather: three players sign in at once, one App each")
        players = [new_app(f"asyncio-player-{n}") for n in range(3)]
        try:
            results = await asyncio.gather(*(p.auth.sign_in_anonymously() for p in players))
            uids = [r.user.uid for r in results]
            print(f"   uids: {', '.join(uids)}")
            check(len(set(uids)) == 3, "three players, three anonymous accounts")
            check(all(p.auth.current_user is not None and p.auth.current_user.uid == uid
                      for p, uid in zip(players, uids)), "each App keeps its own player")
        finally:
            for player in players:
                player.close()

        # ---- The event loop kept running meanwhile ---------------------------------------------------
        beat.cancel()
        print(f"5. the event loop ran {ticks[0]} heartbeat ticks while those were awaited")
        check(ticks[0] > 0, "awaiting Hearth futures does not block the event loop")

        # ---- Sign in again, remove the listener, delete the account -------------------------------------
        print("6. sign in again and delete the account")
        signed_in = await auth.sign_in_with_email_and_password(email, password)
        check(await asyncio.wait_for(states.get(), 10) == email, "the listener reports the sign-in")
        listener.remove()  # no call after this returns
        await signed_in.user.delete()
        check(auth.current_user is None, "deleting the account signs out")
        await asyncio.sleep(0.05)  # time for a (wrong) late listener call to reach the queue
        check(states.empty(), "a removed listener is not called")

    print("OK")


if __name__ == "__main__":
    asyncio.run(main())
