"""A process that persists sessions back to back is killed with SIGKILL at random moments; after every
kill the session file is absent (nothing saved yet) or a complete session of the same user, never empty,
torn or corrupt; at most one temporary file (the killed save's) is left; the file is 0600 in a 0700
directory; and a fresh app loads the user from it.

HEARTH_CRASH_KILLS sets the number of kills (default 150, about 40 s); HEARTH_CRASH_SEED the random seed.
Runs under scripts/with-emulator; HEARTH_SESSION_WRITER names the built tests/crash/session_writer.c.
"""
import json
import os
import random
import signal
import stat
import subprocess
import time

import pytest

from conftest import built_program

KILLS = int(os.environ.get("HEARTH_CRASH_KILLS", "150"))
SEED = int(os.environ.get("HEARTH_CRASH_SEED", str(int(time.time()))))
# Every this many kills the writer starts on an empty directory, so kills before the first save happen too.
FRESH_DIRECTORY_EVERY = 25


@pytest.fixture(scope="module")
def writer():
    return built_program("HEARTH_SESSION_WRITER", "session_writer")


def session_files(directory):
    names = os.listdir(directory) if os.path.isdir(directory) else []
    sessions = [n for n in names if n.endswith(".json")]
    temps = [n for n in names if ".tmp-" in n]
    others = [n for n in names if n not in sessions and n not in temps]
    return sessions, temps, others


def assert_complete_session(path):
    with open(path, "rb") as f:
        raw = f.read()
    assert raw, f"{path} is empty"
    session = json.loads(raw)  # a torn or corrupt file fails here
    assert session["format"] == 1
    assert session["appName"] == "crash-sessions"
    assert session["apiKey"] == "crash-test-api-key"
    assert session["user"]["uid"]
    assert session["tokens"]["refreshToken"]
    return session["user"]["uid"]


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def kill_delay(rng, first_in_directory):
    # The first kill in a fresh directory lands during startup, before any save, so that the
    # "no session yet" outcome is exercised on every run whatever the seed.
    if first_in_directory:
        return rng.uniform(0.0, 0.005)
    # Startup (loading the library, signing in) takes tens of milliseconds; a share of short delays
    # lands there, the rest spreads over the refresh loop where saves follow each other.
    return rng.uniform(0.0, 0.06) if rng.random() < 0.25 else rng.uniform(0.0, 0.4)


def test_sigkill_while_persisting_never_loses_or_corrupts_the_session(writer, tmp_path):
    rng = random.Random(SEED)
    figures = {"kills": 0, "absent": 0, "complete": 0, "most_temps_at_once": 0, "after_saving": 0}
    directory, uid = None, None
    for kill in range(KILLS):
        if kill % FRESH_DIRECTORY_EVERY == 0:
            directory, uid = str(tmp_path / f"sessions-{kill}"), None
        process = subprocess.Popen([writer, "write", directory], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(kill_delay(rng, kill % FRESH_DIRECTORY_EVERY == 0))
        process.send_signal(signal.SIGKILL)
        out, err = process.communicate(timeout=10)
        assert process.returncode == -signal.SIGKILL, (
            f"kill {kill} (seed {SEED}): writer exited by itself with {process.returncode}: {err.decode()}")
        figures["kills"] += 1
        figures["after_saving"] += b"saving" in out

        sessions, temps, others = session_files(directory)
        context = f"kill {kill} (seed {SEED}): {sorted(os.listdir(directory)) if os.path.isdir(directory) else []}"
        assert not others, context
        assert len(sessions) <= 1, context
        # Checked after the loop so that one run reports every figure.
        figures["most_temps_at_once"] = max(figures["most_temps_at_once"], len(temps))
        if len(temps) > 1 and "first_stale_temps" not in figures:
            figures["first_stale_temps"] = context
        if not sessions:
            assert uid is None, f"a saved session disappeared: {context}"
            figures["absent"] += 1
            continue
        assert mode(directory) == 0o700, context
        path = os.path.join(directory, sessions[0])
        assert mode(path) == 0o600, context
        for temp in temps:
            assert mode(os.path.join(directory, temp)) == 0o600, context
        stored_uid = assert_complete_session(path)
        assert uid is None or stored_uid == uid, f"the session changed user: {context}"
        uid = stored_uid
        figures["complete"] += 1

        loaded = subprocess.run([writer, "load", directory], capture_output=True, timeout=10)
        assert loaded.returncode == 0, loaded.stderr.decode()
        assert loaded.stdout.decode().split() == ["user", uid], context

    print(f"\ncrash-sessions figures (seed {SEED}): {figures}")
    assert figures["complete"] > 0 and figures["absent"] > 0  # both outcomes were exercised
    # A killed save may leave its own temporary file; the next save must clear stale ones.
    assert figures["most_temps_at_once"] <= 1, f"stale temporary files accumulate: {figures.get('first_stale_temps')}"
