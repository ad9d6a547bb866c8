"""A fault-injecting HTTP/1.1 proxy on loopback, between a Hearth client and the emulator.

The client is pointed at the proxy (``auth.use_emulator("127.0.0.1", proxy.port)``); each request it
sends is either passed through to the emulator or answered with a fault chosen by the test:

==================  ==============================================================================
``pass``            forward to the emulator and relay its answer (the default)
``refuse``          connection level: the listening socket is closed and open connections are reset,
                    so connecting fails with ECONNREFUSED (see :meth:`FaultProxy.refuse`)
``reset``           read the request, then reset the connection (RST) without answering
``reset_mid``       forward, send the first half of the emulator's answer, then reset
``stall``           read the request and never answer (the connection stays open)
``trickle``         forward, then send the answer one byte every ``interval_ms``
``truncate``        forward, announce a Content-Length ``missing`` bytes larger than the body, send the
                    body, then close the connection
``respond``         answer ``status`` with ``content_type`` and ``body`` (or ``body_size`` bytes of
                    ``fill``) without asking the emulator
==================  ==============================================================================

Faults are rules: ``proxy.add_rule(Fault.stall(), path="securetoken", times=1)`` applies to the next
request whose path contains ``securetoken``; without ``times`` it applies until cleared. Requests no
rule matches pass through. Every request is recorded (time, method, path, what was done).

Two ways to drive it:

- in-process (pytest): ``with FaultProxy(upstream_host, upstream_port) as proxy: ...`` runs an asyncio
  loop on a thread of its own;
- as a program (for clients in other processes): ``python3 fault_proxy.py --upstream URL`` prints
  ``fault-proxy listening on PORT control PORT`` and takes commands on the control port:
  ``POST /rules`` (a rule as JSON: ``{"fault": {...}, "path": ..., "times": ...}``), ``POST /clear``,
  ``POST /refuse`` / ``POST /accept``, ``GET /log`` (the records as JSON), ``POST /reset-log``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import struct
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional, Set, Tuple

MAX_HEAD_BYTES = 64 * 1024


# ---------------------------------------------------------------------------------------------------
# Faults and rules
# ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fault:
    kind: str
    status: int = 200
    content_type: Optional[str] = None
    body: bytes = b""
    #: respond: when > 0, the body is this many bytes of `fill` instead of `body` (sent without
    #: building a second copy per request).
    body_size: int = 0
    fill: bytes = b"x"
    #: trickle: milliseconds between bytes.
    interval_ms: int = 0
    #: truncate: how many more bytes Content-Length announces than are sent.
    missing: int = 0

    KINDS = ("pass", "reset", "reset_mid", "stall", "trickle", "truncate", "respond")

    def __post_init__(self) -> None:
        if self.kind not in self.KINDS:
            raise ValueError(f"unknown fault kind {self.kind!r}")

    # Constructors, so tests read as what they do.
    @staticmethod
    def passthrough() -> "Fault":
        return Fault("pass")

    @staticmethod
    def reset() -> "Fault":
        return Fault("reset")

    @staticmethod
    def reset_mid_response() -> "Fault":
        return Fault("reset_mid")

    @staticmethod
    def stall() -> "Fault":
        return Fault("stall")

    @staticmethod
    def trickle(interval_ms: int) -> "Fault":
        return Fault("trickle", interval_ms=interval_ms)

    @staticmethod
    def truncate(missing: int = 1000) -> "Fault":
        return Fault("truncate", missing=missing)

    @staticmethod
    def respond(status: int, body: bytes = b"", content_type: Optional[str] = "application/json; charset=UTF-8",
                body_size: int = 0, fill: bytes = b"x") -> "Fault":
        return Fault("respond", status=status, content_type=content_type, body=body, body_size=body_size,
                     fill=fill)

    @staticmethod
    def google_error(status: int, message: str, rpc_status: str, reason: Optional[str] = None) -> "Fault":
        """An answer in Google's error envelope, as Identity Toolkit and Secure Token send them."""
        error: Dict[str, Any] = {"code": status, "message": message, "status": rpc_status}
        if reason:
            error["errors"] = [{"message": message, "domain": "global", "reason": reason}]
        return Fault.respond(status, json.dumps({"error": error}).encode())

    # JSON form, for the control API.
    def to_json(self) -> Dict[str, Any]:
        data = asdict(self)
        data["body"] = self.body.decode("latin-1")
        data["fill"] = self.fill.decode("latin-1")
        return data

    @staticmethod
    def from_json(data: Dict[str, Any]) -> "Fault":
        values = dict(data)
        for name in ("body", "fill"):
            if name in values:
                values[name] = str(values[name]).encode("latin-1")
        return Fault(**values)


@dataclass
class Rule:
    fault: Fault
    path: Optional[str] = None
    #: How many more requests this rule applies to; None: until cleared.
    times: Optional[int] = None

    def matches(self, path: str) -> bool:
        return (self.times is None or self.times > 0) and (self.path is None or self.path in path)


@dataclass
class Record:
    """One request the proxy read, and what it did with it."""
    at: float  # time.monotonic()
    method: str
    path: str
    fault: str
    #: For pass-through: the emulator's status; else the status sent (0: none).
    status: int = 0


# ---------------------------------------------------------------------------------------------------
# HTTP/1.1 framing (just what the client and the emulator use)
# ---------------------------------------------------------------------------------------------------


class ConnectionClosed(Exception):
    pass


@dataclass
class Message:
    head: bytes  # start line and headers, without the blank line
    body: bytes
    start: str = ""
    headers: List[Tuple[str, str]] = field(default_factory=list)

    def header(self, name: str) -> Optional[str]:
        lower = name.lower()
        for key, value in self.headers:
            if key.lower() == lower:
                return value
        return None


async def read_head(reader: asyncio.StreamReader) -> Tuple[str, List[Tuple[str, str]], bytes]:
    try:
        raw = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as error:
        raise ConnectionClosed() from error
    except asyncio.LimitOverrunError as error:
        raise ConnectionClosed("head too large") from error
    head = raw[:-4]
    lines = head.decode("latin-1").split("\r\n")
    headers = []
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.append((name.strip(), value.strip()))
    return lines[0], headers, head


async def read_body(reader: asyncio.StreamReader, headers: List[Tuple[str, str]], until_eof: bool) -> bytes:
    values = {name.lower(): value for name, value in headers}
    try:
        if "chunked" in values.get("transfer-encoding", "").lower():
            chunks = []
            while True:
                size_line = await reader.readuntil(b"\r\n")
                size = int(size_line.split(b";")[0].strip(), 16)
                if size == 0:
                    # Trailers, up to the blank line.
                    while (await reader.readuntil(b"\r\n")) != b"\r\n":
                        pass
                    return b"".join(chunks)
                chunks.append(await reader.readexactly(size))
                await reader.readexactly(2)
        if "content-length" in values:
            return await reader.readexactly(int(values["content-length"]))
        return await reader.read() if until_eof else b""
    except asyncio.IncompleteReadError as error:
        raise ConnectionClosed() from error


async def read_request(reader: asyncio.StreamReader) -> Message:
    start, headers, head = await read_head(reader)
    body = await read_body(reader, headers, until_eof=False)
    return Message(head, body, start, headers)


async def read_response(reader: asyncio.StreamReader) -> Message:
    start, headers, head = await read_head(reader)
    body = await read_body(reader, headers, until_eof=True)
    return Message(head, body, start, headers)


def response_bytes(status: int, reason: str, headers: List[Tuple[str, str]], body: bytes,
                   content_length: Optional[int] = None) -> bytes:
    """A response with Content-Length framing (the emulator's hop-by-hop framing is replaced)."""
    lines = [f"HTTP/1.1 {status} {reason}"]
    for name, value in headers:
        if name.lower() in ("content-length", "transfer-encoding", "connection", "keep-alive"):
            continue
        lines.append(f"{name}: {value}")
    lines.append(f"Content-Length: {len(body) if content_length is None else content_length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found", 429: "Too Many Requests",
           500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable"}


def abort_with_reset(writer: asyncio.StreamWriter) -> None:
    """Closes the connection with an RST (SO_LINGER 0), not a FIN."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
    writer.transport.abort()


# ---------------------------------------------------------------------------------------------------
# The proxy
# ---------------------------------------------------------------------------------------------------


class FaultProxy:
    """See the module docstring. Thread-safe: every public method may be called from any thread."""

    def __init__(self, upstream_host: str, upstream_port: int, host: str = "127.0.0.1", port: int = 0) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.host = host
        self.port = port
        self._lock = threading.Lock()
        self._rules: List[Rule] = []
        self._records: List[Record] = []
        self.connections_accepted = 0
        self._open: Set[asyncio.StreamWriter] = set()
        self._server: Optional[asyncio.base_events.Server] = None
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._thread: Optional[threading.Thread] = None

    # --- lifecycle -----------------------------------------------------------------------------
    def start(self) -> "FaultProxy":
        """Runs the proxy on a thread of its own; returns once it is listening."""
        ready = threading.Event()
        failure: List[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                loop.run_until_complete(self._listen())
            except BaseException as error:  # noqa: BLE001 - reported to start()
                failure.append(error)
                ready.set()
                return
            ready.set()
            loop.run_forever()
            loop.run_until_complete(self._shutdown())
            loop.close()

        self._thread = threading.Thread(target=run, name="fault-proxy", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the fault proxy did not start")
        if failure:
            raise failure[0]
        return self

    def close(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._thread = None

    def __enter__(self) -> "FaultProxy":
        return self.start()

    def __exit__(self, *_: Any) -> None:
        self.close()

    # --- control -------------------------------------------------------------------------------
    def add_rule(self, fault: Fault, path: Optional[str] = None, times: Optional[int] = None) -> None:
        with self._lock:
            self._rules.append(Rule(fault, path, times))

    def clear(self) -> None:
        """Every request passes through again (refusing connections is separate: see accept())."""
        with self._lock:
            self._rules.clear()

    def refuse(self) -> None:
        """Stops listening (connections are refused) and resets every open connection."""
        self._call(self._refuse())

    def accept(self) -> None:
        """Listens again, on the same port."""
        self._call(self._listen())

    def records(self) -> List[Record]:
        with self._lock:
            return list(self._records)

    def requests_to(self, fragment: str) -> List[Record]:
        return [record for record in self.records() if fragment in record.path]

    def reset_log(self) -> None:
        with self._lock:
            self._records.clear()
            self.connections_accepted = 0

    @property
    def open_connections(self) -> int:
        with self._lock:
            return len(self._open)

    def _call(self, coroutine: Any) -> Any:
        assert self._loop is not None, "the proxy is not running"
        return asyncio.run_coroutine_threadsafe(coroutine, self._loop).result(10)

    # --- the loop side -------------------------------------------------------------------------
    async def _listen(self) -> None:
        if self._server is not None:
            return
        self._server = await asyncio.start_server(self._serve, self.host, self.port, reuse_address=True,
                                                  backlog=256, limit=MAX_HEAD_BYTES)
        self.port = int(self._server.sockets[0].getsockname()[1])

    async def _refuse(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close()
            await server.wait_closed()
        with self._lock:
            connections = list(self._open)
        for writer in connections:
            abort_with_reset(writer)

    async def _shutdown(self) -> None:
        await self._refuse()
        tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _choose(self, path: str) -> Fault:
        with self._lock:
            for rule in self._rules:
                if rule.matches(path):
                    if rule.times is not None:
                        rule.times -= 1
                    return rule.fault
        return Fault.passthrough()

    def _record(self, request: Message, fault: Fault, status: int = 0) -> Record:
        method, _, rest = request.start.partition(" ")
        record = Record(time.monotonic(), method, rest.rpartition(" ")[0], fault.kind, status)
        with self._lock:
            self._records.append(record)
        return record

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with self._lock:
            self.connections_accepted += 1
            self._open.add(writer)
        upstream: Optional[Tuple[asyncio.StreamReader, asyncio.StreamWriter]] = None
        try:
            while True:
                request = await read_request(reader)
                fault = self._choose(request.start.split(" ")[1] if " " in request.start else "")
                record = self._record(request, fault)
                if fault.kind == "reset":
                    abort_with_reset(writer)
                    return
                if fault.kind == "stall":
                    await reader.read()  # until the client gives up and closes
                    return
                if fault.kind == "respond":
                    record.status = fault.status
                    await self._respond(writer, fault)
                    continue
                answer, upstream = await self._forward(request, upstream)
                status = int(answer.start.split(" ")[1])
                record.status = status
                reason = answer.start.split(" ", 2)[2] if answer.start.count(" ") >= 2 else ""
                if answer.header("connection") == "close":
                    upstream[1].close()
                    upstream = None
                if fault.kind == "pass":
                    writer.write(response_bytes(status, reason, answer.headers, answer.body))
                    await writer.drain()
                elif fault.kind == "trickle":
                    data = response_bytes(status, reason, answer.headers, answer.body)
                    for index in range(len(data)):
                        writer.write(data[index:index + 1])
                        await writer.drain()
                        await asyncio.sleep(fault.interval_ms / 1000)
                elif fault.kind == "reset_mid":
                    data = response_bytes(status, reason, answer.headers, answer.body)
                    writer.write(data[:len(data) // 2])
                    await writer.drain()
                    await asyncio.sleep(0.05)  # let the half arrive before the RST
                    abort_with_reset(writer)
                    return
                elif fault.kind == "truncate":
                    writer.write(response_bytes(status, reason, answer.headers, answer.body,
                                                content_length=len(answer.body) + fault.missing))
                    await writer.drain()
                    writer.close()
                    return
        except (ConnectionClosed, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            with self._lock:
                self._open.discard(writer)
            if upstream is not None:
                upstream[1].close()
            if not writer.transport.is_closing():
                writer.close()

    async def _forward(self, request: Message,
                       upstream: Optional[Tuple[asyncio.StreamReader, asyncio.StreamWriter]]
                       ) -> Tuple[Message, Tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
        """Sends the request to the emulator on the kept-alive connection, or a new one; a kept-alive
        connection the emulator has meanwhile closed is replaced once (that is no fault of the test's)."""
        for attempt in range(2):
            reused = upstream is not None
            if upstream is None:
                upstream = await asyncio.open_connection(*self.upstream, limit=MAX_HEAD_BYTES)
            try:
                upstream[1].write(request.head + b"\r\n\r\n" + request.body)
                await upstream[1].drain()
                return await read_response(upstream[0]), upstream
            except (ConnectionClosed, ConnectionError):
                upstream[1].close()
                upstream = None
                if not reused or attempt == 1:
                    raise
        raise AssertionError("unreachable")

    async def _respond(self, writer: asyncio.StreamWriter, fault: Fault) -> None:
        headers = [("Content-Type", fault.content_type)] if fault.content_type else []
        if fault.body_size > 0:
            writer.write(response_bytes(fault.status, REASONS.get(fault.status, "Status"), headers, b"",
                                        content_length=fault.body_size))
            block = (fault.fill * (65536 // max(1, len(fault.fill)) + 1))[:65536]
            remaining = fault.body_size
            while remaining > 0:
                piece = block[:min(remaining, len(block))]
                writer.write(piece)
                remaining -= len(piece)
                await writer.drain()
        else:
            writer.write(response_bytes(fault.status, REASONS.get(fault.status, "Status"), headers, fault.body))
        await writer.drain()


# ---------------------------------------------------------------------------------------------------
# Control API (program mode)
# ---------------------------------------------------------------------------------------------------


class ControlServer:
    """A tiny JSON API on its own port, so a client in another process can drive the proxy."""

    def __init__(self, proxy: FaultProxy, host: str = "127.0.0.1", port: int = 0) -> None:
        self.proxy = proxy
        self.host = host
        self.port = port

    def start(self) -> "ControlServer":
        assert self.proxy._loop is not None
        server = asyncio.run_coroutine_threadsafe(
            asyncio.start_server(self._serve, self.host, self.port), self.proxy._loop).result(10)
        self.port = int(server.sockets[0].getsockname()[1])
        return self

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            request = await read_request(reader)
            method, path = request.start.split(" ")[:2]
            status, answer = 200, self._handle(method, path, request.body)
        except Exception as error:  # noqa: BLE001 - answered as a 400
            status, answer = 400, {"error": str(error)}
        body = json.dumps(answer).encode()
        writer.write(response_bytes(status, REASONS.get(status, ""), [("Content-Type", "application/json"),
                                                                       ("Connection", "close")], body))
        await writer.drain()
        writer.close()

    def _handle(self, method: str, path: str, body: bytes) -> Any:
        proxy = self.proxy
        if method == "POST" and path == "/rules":
            data = json.loads(body)
            proxy.add_rule(Fault.from_json(data["fault"]), data.get("path"), data.get("times"))
            return {"ok": True}
        if method == "POST" and path == "/clear":
            proxy.clear()
            return {"ok": True}
        if method == "POST" and path == "/refuse":
            asyncio.ensure_future(proxy._refuse())
            return {"ok": True}
        if method == "POST" and path == "/accept":
            asyncio.ensure_future(proxy._listen())
            return {"ok": True}
        if method == "POST" and path == "/reset-log":
            proxy.reset_log()
            return {"ok": True}
        if method == "GET" and path == "/log":
            return {"connections": proxy.connections_accepted,
                    "records": [asdict(record) for record in proxy.records()]}
        raise ValueError(f"no such control request: {method} {path}")


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--upstream", required=True, help="the emulator, e.g. http://127.0.0.1:9099")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--control-port", type=int, default=0)
    args = parser.parse_args(argv)
    hostport = args.upstream.split("://", 1)[-1].rstrip("/")
    host, _, port = hostport.rpartition(":")
    proxy = FaultProxy(host, int(port), port=args.port).start()
    control = ControlServer(proxy, port=args.control_port).start()
    print(f"fault-proxy listening on {proxy.port} control {control.port}", flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        proxy.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
