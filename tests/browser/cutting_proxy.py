"""A TCP proxy on loopback that the test can cut: every connection through it is closed at
once, as a phone losing its network drops them, while the server behind it runs on."""

from __future__ import annotations

import contextlib
import socket
import threading

from service.adapters.embedded_redis import free_port

CHUNK = 65536


class CuttingProxy:
    """Forwards 127.0.0.1:`port` to 127.0.0.1:`upstream_port`; `cut()` drops what is open."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.port = free_port()
        self.connections = 0  # accepted so far
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", self.port))
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        """The proxy's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return  # closed
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            with self._lock:
                self.connections += 1
                self._open |= {client, upstream}
            for source, target in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(CHUNK):
                target.sendall(data)
        except OSError:
            pass
        finally:
            self._close(source, target)

    def _close(self, *sockets: socket.socket) -> None:
        for sock in sockets:
            with self._lock:
                self._open.discard(sock)
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def cut(self) -> None:
        """Close every connection open through the proxy (new ones are accepted)."""
        with self._lock:
            open_now = list(self._open)
        self._close(*open_now)

    def close(self) -> None:
        """Stop accepting and cut what is open."""
        self._listener.close()
        self.cut()
