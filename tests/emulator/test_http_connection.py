"""HTTP/1.1 on the wire, below what requests shows: keep-alive, pipelining, Connection: close,
HTTP/1.0, chunked and oversized bodies, Expect: 100-continue, half-close and malformed requests.
Raw sockets, so each test controls exactly what is sent and sees exactly what comes back."""
from __future__ import annotations

import json
import re
import socket
import urllib.parse
from dataclasses import dataclass

import pytest

from emulator_client import IDENTITY

SIGN_UP = f"{IDENTITY}/accounts:signUp?key=k"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self):
        return json.loads(self.body)


class Connection:
    """One TCP connection that reads answers off the stream in order."""

    def __init__(self, base_url: str):
        parsed = urllib.parse.urlparse(base_url)
        self.host = parsed.hostname
        self.sock = socket.create_connection((parsed.hostname, parsed.port), timeout=10)
        self.buffer = b""

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def request(self, method: str, target: str, body: bytes = b"", headers: dict[str, str] | None = None,
                version: str = "HTTP/1.1") -> bytes:
        fields = {"Host": self.host, **(headers or {})}
        if body and "Transfer-Encoding" not in fields:
            fields["Content-Length"] = str(len(body))
        head = f"{method} {target} {version}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items()) + "\r\n"
        return head.encode() + body

    def _fill(self) -> bool:
        chunk = self.sock.recv(65536)
        self.buffer += chunk
        return bool(chunk)

    def read_answer(self) -> Answer:
        while b"\r\n\r\n" not in self.buffer:
            assert self._fill(), f"connection closed before an answer; got {self.buffer!r}"
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            assert self._fill(), "connection closed inside a body"
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return Answer(status, headers, body)

    def is_closed_by_server(self) -> bool:
        try:
            return not self.buffer and self.sock.recv(1) == b""
        except ConnectionResetError:
            return True

    def close(self) -> None:
        self.sock.close()


@pytest.fixture()
def conn(base_url):
    connection = Connection(base_url)
    yield connection
    connection.close()


def sign_up_body(email: str) -> bytes:
    return json.dumps({"email": email, "password": "123456", "returnSecureToken": True}).encode()


def test_every_answer_has_length_date_and_server(conn):
    conn.send(conn.request("GET", "/"))
    answer = conn.read_answer()
    assert answer.status == 200
    assert answer.headers["content-length"] == str(len(answer.body))
    assert answer.headers["server"] == "hearth-emulator"
    assert re.fullmatch(r"[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT", answer.headers["date"])
    conn.send(conn.request("GET", "/nope"))
    missing = conn.read_answer()
    assert missing.status == 404 and missing.headers["server"] == "hearth-emulator" and "date" in missing.headers


def test_keep_alive_serves_many_requests_on_one_connection(conn, emu):
    for i in range(300):
        conn.send(conn.request("POST", SIGN_UP, b"{}", {"Content-Type": "application/json"}))
        answer = conn.read_answer()
        assert answer.status == 200, answer.body
        assert "idToken" in answer.json()
        assert answer.headers.get("connection", "").lower() != "close"
    assert emu.ok(emu.admin(":query", {"returnUserInfo": False})) == {"recordsCount": "300"}


def test_pipelined_requests_are_answered_in_order(conn):
    batch = b"".join([
        conn.request("POST", SIGN_UP, sign_up_body("first@example.com"), {"Content-Type": "application/json"}),
        conn.request("GET", "/nope"),
        conn.request("POST", SIGN_UP, sign_up_body("second@example.com"), {"Content-Type": "application/json"}),
        conn.request("POST", SIGN_UP, b"{", {"Content-Type": "application/json"}),
        conn.request("GET", "/"),
    ])
    conn.send(batch)
    answers = [conn.read_answer() for _ in range(5)]
    assert [a.status for a in answers] == [200, 404, 200, 400, 200]
    assert answers[0].json()["email"] == "first@example.com"
    assert answers[2].json()["email"] == "second@example.com"
    assert answers[4].json()["authEmulator"]["ready"] is True


def test_connection_close_is_answered_then_closed(conn):
    conn.send(conn.request("GET", "/", headers={"Connection": "close"}))
    answer = conn.read_answer()
    assert answer.status == 200
    assert answer.headers["connection"].lower() == "close"
    assert conn.is_closed_by_server()


def test_requests_pipelined_after_connection_close_are_not_answered(conn):
    conn.send(conn.request("GET", "/", headers={"Connection": "close"}) + conn.request("GET", "/nope"))
    assert conn.read_answer().status == 200
    assert conn.is_closed_by_server()


def test_http_1_0_closes_unless_kept_alive(base_url):
    plain = Connection(base_url)
    plain.send(plain.request("GET", "/", version="HTTP/1.0"))
    assert plain.read_answer().status == 200
    assert plain.is_closed_by_server()
    plain.close()

    kept = Connection(base_url)
    for _ in range(3):
        kept.send(kept.request("GET", "/", headers={"Connection": "keep-alive"}, version="HTTP/1.0"))
        answer = kept.read_answer()
        assert answer.status == 200
        assert answer.headers["connection"].lower() == "keep-alive"
    kept.close()


def test_chunked_request_body(conn):
    payload = sign_up_body("chunked@example.com")
    pieces = [payload[:7], payload[7:20], payload[20:]]
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n"
    conn.send(conn.request("POST", SIGN_UP, chunked,
                           {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}))
    answer = conn.read_answer()
    assert answer.status == 200, answer.body
    assert answer.json()["email"] == "chunked@example.com"


def test_oversized_chunked_body_is_413_and_the_connection_goes_on(conn):
    chunk = b"x" * 65536
    body = b'{"displayName":"' + chunk * 32 + b'"}'
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 65536]), body[i:i + 65536])
                       for i in range(0, len(body), 65536)) + b"0\r\n\r\n"
    conn.send(conn.request("POST", SIGN_UP, chunked,
                           {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}))
    answer = conn.read_answer()
    assert answer.status == 413
    assert "1048576" in answer.json()["error"]["message"]
    conn.send(conn.request("POST", SIGN_UP, b"{}", {"Content-Type": "application/json"}))
    assert conn.read_answer().status == 200


def test_expect_100_continue_gets_an_interim_answer(conn):
    payload = sign_up_body("expect@example.com")
    head = conn.request("POST", SIGN_UP, payload, {"Content-Type": "application/json", "Expect": "100-continue"})
    conn.send(head[:-len(payload)])
    interim = conn.read_answer()
    assert interim.status == 100
    conn.send(payload)
    answer = conn.read_answer()
    assert answer.status == 200
    assert answer.json()["email"] == "expect@example.com"


def test_half_closed_client_still_reads_its_answers(conn):
    conn.send(conn.request("GET", "/") + conn.request("GET", "/nope"))
    conn.sock.shutdown(socket.SHUT_WR)
    assert conn.read_answer().status == 200
    assert conn.read_answer().status == 404
    assert conn.is_closed_by_server()


@pytest.mark.parametrize("garbage", [b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9.9\r\n\r\n", b"GET /\x00 HTTP/1.1\r\n\r\n",
                                     b"POST / HTTP/1.1\r\nContent-Length: nope\r\n\r\n"])
def test_malformed_request_is_400_and_closed(conn, garbage):
    conn.send(garbage)
    answer = conn.read_answer()
    assert answer.status == 400
    assert answer.headers["connection"].lower() == "close"
    assert conn.is_closed_by_server()


def test_too_many_header_fields_is_400_and_closed(conn):
    fields = {f"X-Field-{i}": "v" for i in range(1001)}
    conn.send(conn.request("GET", "/", headers=fields))
    answer = conn.read_answer()
    assert answer.status == 400
    assert conn.is_closed_by_server()


def test_many_header_fields_within_the_limit_are_served(conn):
    conn.send(conn.request("GET", "/", headers={f"X-Field-{i}": "v" for i in range(990)}))
    assert conn.read_answer().status == 200


def test_malformed_request_after_a_good_one_is_answered_in_order(conn):
    conn.send(conn.request("GET", "/") + b"NOT HTTP AT ALL\r\n\r\n")
    assert conn.read_answer().status == 200
    assert conn.read_answer().status == 400
    assert conn.is_closed_by_server()


def test_head_answers_headers_without_a_body(conn):
    # No route answers HEAD (as before): the headers of a 404, its body left out.
    conn.send(conn.request("HEAD", "/") + conn.request("GET", "/"))
    while b"\r\n\r\n" not in conn.buffer:
        assert conn._fill()
    head, conn.buffer = conn.buffer.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 404")
    assert int(re.search(rb"(?i)content-length: (\d+)", head).group(1)) > 0
    assert conn.read_answer().status == 200
