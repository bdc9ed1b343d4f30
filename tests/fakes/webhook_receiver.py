"""A real HTTP receiver of webhooks on loopback: answers each delivery as scripted (a status,
or a stall past the sender's timeout), verifies every signature with the independent
`standardwebhooks` library, and records what it accepted."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook


@dataclass
class Received:
    """One delivery attempt as received."""

    id: str
    body: dict[str, Any]
    answered: int | str  # the status sent, or "stall"


@dataclass
class Receiver:
    """The receiver's state: its script (consumed first to last, then 200s), its record."""

    secret: str
    script: list[int | str] = field(default_factory=list)
    attempts: list[Received] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stall_s: float = 2.0
    delay_s: float = 0.0  # every answer waits this long (a slow receiver)
    verify: bool = True  # off only in the benchmark, where the receiver stands for a remote one
    url: str = ""

    def accepted(self) -> list[Received]:
        """Attempts answered 2xx."""
        with self.lock:
            return [a for a in self.attempts if a.answered == 200]

    def accepted_notification_ids(self) -> set[str]:
        """Every notification id in an accepted delivery."""
        return {n["id"] for a in self.accepted() for n in a.body["notifications"]}


def _handler(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep connections open, as a push gateway would

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            headers = {k.lower(): v for k, v in self.headers.items()}
            # Raises on a bad signature or timestamp: the delivery is then answered 400.
            try:
                if receiver.verify:
                    payload = Webhook(receiver.secret).verify(body, headers)
                else:
                    payload = json.loads(body)
            except Exception:
                self.send_response(400)
                self.send_header("content-length", "0")
                self.end_headers()
                return
            with receiver.lock:
                answer = receiver.script.pop(0) if receiver.script else 200
                receiver.attempts.append(Received(headers["webhook-id"], payload, answer))
            time.sleep(receiver.delay_s)
            if answer == "stall":
                time.sleep(receiver.stall_s)
                answer = 200
            self.send_response(int(answer))
            self.send_header("content-length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

    return Handler


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # a dispatcher opens many connections at once


@contextlib.contextmanager
def serve_receiver(secret: str, script: list[int | str] | None = None) -> Iterator[Receiver]:
    """Run a receiver on a free loopback port until the generator is closed."""
    receiver = Receiver(secret, list(script or []))
    server = _Server(("127.0.0.1", 0), _handler(receiver))
    server.daemon_threads = True
    receiver.url = f"http://127.0.0.1:{server.server_address[1]}/hook"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        server.shutdown()
        server.server_close()


def body_json(received: Received) -> str:
    """The delivery's body, as JSON text (for the hidden-information checks)."""
    return json.dumps(received.body)


def main() -> None:
    """Run a receiver alone (the benchmark's, in a process of its own): it prints its URL,
    and answers GET /count with how many distinct notifications it accepted."""
    import argparse
    import sys

    parser = argparse.ArgumentParser()
    parser.add_argument("--secret", required=True)
    parser.add_argument("--no-verify", action="store_true", help="skip signature checks")
    args = parser.parse_args()
    with serve_receiver(args.secret) as receiver:
        receiver.verify = not args.no_verify
        count_server = ThreadingHTTPServer(("127.0.0.1", 0), _counter(receiver))
        count_url = f"http://127.0.0.1:{count_server.server_address[1]}/count"
        print(receiver.url, count_url, flush=True)
        threading.Thread(target=count_server.serve_forever, daemon=True).start()
        sys.stdin.read()  # until the parent closes our stdin


def _counter(receiver: Receiver) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            body = json.dumps(
                {
                    "notifications": len(receiver.accepted_notification_ids()),
                    "deliveries": len(receiver.accepted()),
                }
            ).encode()
            self.send_response(200)
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    return Handler


if __name__ == "__main__":
    main()
