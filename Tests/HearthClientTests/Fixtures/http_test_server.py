#!/usr/bin/env python3
"""Loopback HTTP/1.1 server for the client's transport tests.

Binds 127.0.0.1 on a free port, prints the port on the first line of stdout, and serves until its
stdin closes (so it never outlives the test process). Keep-alive, TCP_NODELAY and a deep accept
queue: without them Python stalls at ~20 concurrent connections and looks like a client bug.

Routes (any method):
  /echo            200 application/json: method, path, headers, body, and this connection's serial
  /status/<code>   <code> text/plain, body "status <code>"
  /delay?ms=N      waits N ms, then 200 application/json {"delayed": N, "connection": serial}
  /stall?ms=N      waits N ms, then closes the connection without responding
  /bytes?n=N       200 application/octet-stream with N bytes
  /redirect?to=U   307 to U (a client must hand the answer back, not follow it)
  /requests        200 application/json: [[method, Host header, path], ...] of every earlier request
  /gzip?n=N        200 application/json {"acceptEncoding": the request's header, "sentCompressed": bool,
                   "padding": N x "a"}: gzip-compressed (Content-Encoding: gzip) when the request
                   accepts gzip, as Google's servers answer, else plain
  /gzip-corrupt    200 with Content-Encoding: gzip and a body that is not gzip
  /gzip-truncated  200 with Content-Encoding: gzip and the first half of a gzip body
  /gzip-bomb?n=N   200 with Content-Encoding: gzip: a few KiB that inflate to N zero bytes

Canned Firebase answers, only for the production Host header each belongs to (anything else: 404),
so a client routed here by CONNECT_TO must have addressed the real production name:
  identitytoolkit.googleapis.com  /v1/accounts:signUp, /v1/accounts:lookup
  securetoken.googleapis.com      /v1/token
  They issue an unsigned ID token for uid "tls-user" and refresh tokens "tls-refresh-N".

  --tls CERT KEY   serve HTTPS with that certificate chain and key.
"""
import argparse
import base64
import gzip
import itertools
import json
import os
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

_serials = itertools.count(1)
_serials_lock = threading.Lock()
_requests = []
_refreshes = itertools.count(1)
IDENTITY_TOOLKIT = "identitytoolkit.googleapis.com"
SECURE_TOKEN = "securetoken.googleapis.com"


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def id_token():
    now = int(time.time())
    claims = {"iss": "https://securetoken.google.com/tls-project", "aud": "tls-project", "sub": "tls-user",
              "user_id": "tls-user", "iat": now, "auth_time": now, "exp": now + 3600,
              "firebase": {"identities": {}, "sign_in_provider": "anonymous"}}
    return _b64(b'{"alg":"none","typ":"JWT"}') + "." + _b64(json.dumps(claims).encode()) + "."


def canned_firebase_answer(host, path):
    """The JSON a production endpoint would answer, or None when host and path are not one."""
    if host == IDENTITY_TOOLKIT and path == "/v1/accounts:signUp":
        return {"kind": "identitytoolkit#SignupNewUserResponse", "idToken": id_token(),
                "refreshToken": f"tls-refresh-{next(_refreshes)}", "expiresIn": "3600", "localId": "tls-user"}
    if host == IDENTITY_TOOLKIT and path == "/v1/accounts:lookup":
        return {"kind": "identitytoolkit#GetAccountInfoResponse",
                "users": [{"localId": "tls-user", "lastLoginAt": "1", "createdAt": "1"}]}
    if host == SECURE_TOKEN and path == "/v1/token":
        return {"id_token": id_token(), "access_token": id_token(), "expires_in": "3600", "token_type": "Bearer",
                "refresh_token": f"tls-refresh-{next(_refreshes)}", "user_id": "tls-user", "project_id": "tls-project"}
    return None


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with _serials_lock:
            self.connection_serial = next(_serials)

    def log_message(self, format, *args):
        pass

    def do_GET(self):
        self.route()

    do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_GET

    def route(self):
        url = urlparse(self.path)
        query = parse_qs(url.query)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        host_header = self.headers.get("Host") or ""
        with _serials_lock:
            seen = list(_requests)
            _requests.append([self.command, host_header, self.path])
        # The production names carry no port (https' default) and are never IPv6 literals.
        canned = canned_firebase_answer(host_header.split(":")[0], url.path)
        if canned is not None:
            self.respond(200, "application/json; charset=UTF-8", json.dumps(canned).encode())
        elif url.path == "/requests":
            self.respond(200, "application/json", json.dumps(seen).encode())
        elif url.path == "/redirect":
            self.send_response(307)
            self.send_header("Location", query.get("to", ["/echo"])[0])
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif url.path == "/echo":
            payload = {
                "method": self.command,
                "path": self.path,
                "headers": [[name, value] for name, value in self.headers.items()],
                "body": body.decode("utf-8", "replace"),
                "bodyLength": len(body),
                "connection": self.connection_serial,
            }
            self.respond(200, "application/json", json.dumps(payload).encode())
        elif url.path.startswith("/status/"):
            code = int(url.path.rsplit("/", 1)[1])
            self.respond(code, "text/plain", f"status {code}".encode())
        elif url.path == "/delay":
            ms = int(query.get("ms", ["0"])[0])
            time.sleep(ms / 1000)
            payload = {"delayed": ms, "connection": self.connection_serial}
            self.respond(200, "application/json", json.dumps(payload).encode())
        elif url.path == "/echo-then-drop":
            # A normal keep-alive answer, then the server closes the connection without saying so.
            self.respond(200, "application/json", json.dumps({"connection": self.connection_serial}).encode())
            self.wfile.flush()
            time.sleep(int(query.get("ms", ["0"])[0]) / 1000)
            self.close_connection = True
        elif url.path == "/stall":
            time.sleep(int(query.get("ms", ["0"])[0]) / 1000)
            self.close_connection = True
        elif url.path == "/gzip":
            accepted = self.headers.get("Accept-Encoding") or ""
            compress = "gzip" in [part.split(";")[0].strip() for part in accepted.split(",")]
            payload = json.dumps({"acceptEncoding": accepted, "sentCompressed": compress,
                                  "padding": "a" * int(query.get("n", ["0"])[0])}).encode()
            if compress:
                self.respond(200, "application/json", gzip.compress(payload), encoding="gzip")
            else:
                self.respond(200, "application/json", payload)
        elif url.path == "/gzip-corrupt":
            self.respond(200, "application/json", b"this is not a gzip stream at all", encoding="gzip")
        elif url.path == "/gzip-truncated":
            whole = gzip.compress(json.dumps({"padding": "x" * 4096}).encode())
            self.respond(200, "application/json", whole[: len(whole) // 2], encoding="gzip")
        elif url.path == "/gzip-bomb":
            self.respond(200, "application/octet-stream", gzip.compress(bytes(int(query.get("n", ["0"])[0]))),
                         encoding="gzip")
        elif url.path == "/bytes":
            self.respond(200, "application/octet-stream", b"x" * int(query.get("n", ["0"])[0]))
        else:
            self.respond(404, "text/plain", b"no such route")

    def respond(self, code, content_type, body, encoding=None):
        try:
            self.send_response(code)
            self.send_header("Content-Type", content_type)
            if encoding:
                self.send_header("Content-Encoding", encoding)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024
    allow_reuse_address = True


def exit_when_stdin_closes():
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    args = parser.parse_args()
    server = Server(("127.0.0.1", 0), Handler)
    if args.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(args.tls[0], args.tls[1])
        # Handshake in the handler thread, so a client that rejects the certificate cannot stall accept().
        server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
