"""The proxy itself, checked on the wire with plain sockets: each fault is what its name says, so a
client test that passes through it has really met that fault."""

from __future__ import annotations

import json
import socket
import time
from typing import Optional, Tuple

import pytest

from conftest import API_KEY, Emulator
from fault_proxy import Fault, FaultProxy

LOOKUP = f"/identitytoolkit.googleapis.com/v1/accounts:lookup?key={API_KEY}"


def request_bytes(path: str = LOOKUP, body: bytes = b'{"idToken":"not-a-token"}') -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def exchange(port: int, timeout: float = 5.0, wait_for: Optional[int] = None) -> Tuple[bytes, Optional[BaseException]]:
    """Sends one request; returns what came back until EOF / error / `wait_for` bytes / timeout."""
    received = b""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
        connection.sendall(request_bytes())
        try:
            while wait_for is None or len(received) < wait_for:
                chunk = connection.recv(1 << 20)
                if not chunk:
                    return received, None
                received += chunk
                if wait_for is None and complete(received):
                    return received, None
        except OSError as error:
            return received, error
    return received, None


def complete(data: bytes) -> bool:
    head, separator, body = data.partition(b"\r\n\r\n")
    if not separator:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return False


def status_and_body(data: bytes) -> Tuple[int, bytes]:
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split(b" ")[1]), body


def test_pass_through_relays_the_emulators_answer(proxy: FaultProxy) -> None:
    data, error = exchange(proxy.port)
    assert error is None
    status, body = status_and_body(data)
    assert status == 400 and b"INVALID_ID_TOKEN" in body
    assert [(r.fault, r.status) for r in proxy.records()] == [("pass", 400)]


def test_refuse_closes_the_listener_and_accept_reopens_it_on_the_same_port(proxy: FaultProxy) -> None:
    port = proxy.port
    proxy.refuse()
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    proxy.accept()
    assert proxy.port == port
    assert status_and_body(exchange(port)[0])[0] == 400


def test_reset_answers_a_request_with_an_rst(proxy: FaultProxy) -> None:
    proxy.add_rule(Fault.reset())
    data, error = exchange(proxy.port)
    assert data == b"" and isinstance(error, ConnectionResetError)


def test_reset_mid_response_sends_half_an_answer_then_an_rst(proxy: FaultProxy) -> None:
    proxy.add_rule(Fault.reset_mid_response())
    data, error = exchange(proxy.port)
    assert data.startswith(b"HTTP/1.1 400") and not complete(data)
    assert isinstance(error, ConnectionResetError)


def test_stall_reads_the_request_and_never_answers(proxy: FaultProxy) -> None:
    proxy.add_rule(Fault.stall())
    data, error = exchange(proxy.port, timeout=1.0)
    assert data == b"" and isinstance(error, socket.timeout)
    assert [r.fault for r in proxy.records()] == ["stall"]


def test_trickle_sends_one_byte_per_interval(proxy: FaultProxy) -> None:
    proxy.add_rule(Fault.trickle(interval_ms=20))
    started = time.monotonic()
    data, error = exchange(proxy.port, wait_for=20)
    assert error is None and data == b"HTTP/1.1 400 Bad Req"[:20]
    assert time.monotonic() - started >= 19 * 0.020


def test_truncate_announces_more_than_it_sends_then_closes(proxy: FaultProxy) -> None:
    proxy.add_rule(Fault.truncate(missing=1000))
    data, error = exchange(proxy.port)
    assert error is None, "closed with a FIN, not an RST"
    head, _, body = data.partition(b"\r\n\r\n")
    length = int([line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")][0].split(b":")[1])
    assert length == len(body) + 1000


def test_respond_sends_the_given_status_type_and_body_without_asking_the_emulator(
        proxy: FaultProxy, emulator: Emulator) -> None:
    proxy.add_rule(Fault.google_error(503, "The service is currently unavailable.", "UNAVAILABLE"), times=1)
    data, _ = exchange(proxy.port)
    status, body = status_and_body(data)
    assert status == 503 and b"content-type: application/json" in data.lower()
    assert json.loads(body)["error"]["message"] == "The service is currently unavailable."
    # `times` used up: the next request passes through again.
    assert status_and_body(exchange(proxy.port)[0])[0] == 400
    assert [(r.fault, r.status) for r in proxy.records()] == [("respond", 503), ("pass", 400)]


def test_a_10MiB_body_arrives_whole(proxy: FaultProxy) -> None:
    proxy.add_rule(Fault.respond(200, body_size=10 * 1024 * 1024, fill=b"ab"))
    data, error = exchange(proxy.port)
    assert error is None
    status, body = status_and_body(data)
    assert status == 200 and len(body) == 10 * 1024 * 1024 and body[:4] == b"abab"


def test_rules_apply_only_to_matching_paths(proxy: FaultProxy) -> None:
    proxy.add_rule(Fault.respond(429, content_type=None), path="securetoken")
    assert status_and_body(exchange(proxy.port)[0])[0] == 400  # accounts:lookup passes
    assert [r.fault for r in proxy.records()] == ["pass"]
