"""A TLS front for hearth-emulator under the production host names, for the bare-root wheel test.

A client that is not told about an emulator sends https://identitytoolkit.googleapis.com/v1/... and
https://securetoken.googleapis.com/v1/...; where those names resolve to this front (the bare root's
/etc/hosts, in a network namespace of its own), it answers with a certificate for them and passes
each request on to the emulator under the emulator's path for that host (/HOST/v1/...), as Firebase's
emulator routes them. So the wheel's own libcurl and OpenSSL verify a real chain against the CA
bundle the root keeps, end to end.
"""
import http.client
import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Tuple

# Headers that describe one hop, not the request.
HOP_HEADERS = {"host", "connection", "keep-alive", "content-length", "transfer-encoding"}


class TLSFront(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: Tuple[str, int], emulator: Tuple[str, int], certificate: str, key: str):
        super().__init__(address, _Forwarder)
        self.emulator = emulator
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        # HTTP/1.1 only: the forwarder speaks nothing else (the client offers h2 as well).
        context.set_alpn_protocols(["http/1.1"])
        self.socket = context.wrap_socket(self.socket, server_side=True)
        self.handshake_failures = 0

    def get_request(self):
        # The handshake runs in accept(); a client refusing the certificate ends it there.
        try:
            return super().get_request()
        except ssl.SSLError:
            self.handshake_failures += 1
            raise

    def start(self) -> "TLSFront":
        threading.Thread(target=self.serve_forever, daemon=True).start()
        return self


class _Forwarder(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: TLSFront

    def log_message(self, format, *args) -> None:
        pass

    def _forward(self) -> None:
        host = (self.headers.get("Host") or "").split(":")[0]
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else None
        headers = {name: value for name, value in self.headers.items() if name.lower() not in HOP_HEADERS}
        connection = http.client.HTTPConnection(*self.server.emulator, timeout=30)
        try:
            connection.request(self.command, f"/{host}{self.path}", body=body, headers=headers)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        self.send_response(response.status)
        for name, value in response.getheaders():
            if name.lower() not in HOP_HEADERS:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_DELETE = do_PATCH = do_PUT = _forward
