"""Faults on a host loop (C only: hearth_app_options.loop), driven through host_loop_faults.c.

Besides the code and the single completion callback, this checks what only a host loop shows: the
callback runs inside the host's uv_run on its thread, uv_run(UV_RUN_DEFAULT) returns by itself once
the failed request is over (nothing of Hearth keeps the loop alive, nothing hangs it), waiting out a
stall costs the host almost no CPU, and after hearth_app_destroy plus one uv_run, uv_loop_close
succeeds (no handle left behind by the fault)."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any, Dict

import pytest

from conftest import PASSWORD, SLACK, Emulator, unique_email
from fault_proxy import FaultProxy
from test_operation_faults import CASES, Case, inject

PROGRAM_VARIABLE = "HEARTH_HOST_LOOP_FAULTS"
HOST_CASES = [case for case in CASES if case.id in {
    "refuse", "reset-after-request", "reset-mid-response", "truncated-body", "stall", "429-no-body",
    "503-json", "503-no-body", "200-text-html", "200-10MiB-junk"}]
PATHS = {"sign-in": "accounts:signInWithPassword", "get-token": "securetoken.googleapis.com",
         "reload": "accounts:lookup"}


@pytest.fixture(scope="session")
def program() -> str:
    path = os.environ.get(PROGRAM_VARIABLE, "")
    if not path or not os.access(path, os.X_OK):
        pytest.fail(f"{PROGRAM_VARIABLE} must name the built host_loop_faults program (make test-faults builds it)",
                    pytrace=False)
    return path


def run_through_fault(program: str, proxy: FaultProxy, emulator: Emulator, case: Case, operation: str) -> Dict[str, Any]:
    email = unique_email()
    emulator.create_account(email)
    timeout_ms = int(case.request_timeout * 1000)
    process = subprocess.Popen([program, str(proxy.port), operation, email, PASSWORD, str(timeout_ms)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdin is not None
        ready = process.stdout.readline()
        assert ready == "ready\n", f"the program did not get ready: {ready!r} {process.stderr.read() if process.stderr else ''}"
        inject(proxy, case, PATHS[operation])
        process.stdin.write("go\n")
        process.stdin.flush()
        out, err = process.communicate(timeout=case.request_timeout + SLACK + 10)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, f"host_loop_faults exited with {process.returncode}: {err}"
    return dict(json.loads(out.strip().splitlines()[-1]))


@pytest.mark.parametrize("operation", list(PATHS))
@pytest.mark.parametrize("case", HOST_CASES, ids=[case.id for case in HOST_CASES])
def test_a_fault_on_a_host_loop_completes_once_inside_uv_run_and_leaves_nothing_behind(
        case: Case, operation: str, program: str, proxy: FaultProxy, emulator: Emulator) -> None:
    facts = run_through_fault(program, proxy, emulator, case, operation)

    assert facts["code"] == case.expected.code, facts
    assert case.expected.message in facts["message"], facts
    assert facts["callbacks"] == 1 and facts["callbacks_inside_call"] == 0, facts
    assert facts["callback_on_loop_thread"] == 1 and facts["status_in_callback"] == 0, facts
    # uv_run(UV_RUN_DEFAULT) came back by itself, with the future complete, within the timeout.
    assert facts["status_after_run"] == 0, facts
    assert facts["uv_run_ms"] <= (case.request_timeout + SLACK) * 1000, facts
    if case.expected.times_out:
        assert facts["uv_run_ms"] >= case.request_timeout * 900, facts
        # Waiting out a stall is idle time, not a busy loop.
        assert facts["cpu_ms"] < 0.05 * facts["uv_run_ms"], facts
    assert facts["signed_in_after"] == 1, facts
    assert facts["loop_close"] == 0, facts
