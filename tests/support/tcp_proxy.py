"""A TCP forwarder whose far side can be made unreachable and reachable again: `cut()` closes the listening
socket and every connection through it (callers get "connection refused"), `restore()` listens again. The far side
is a port on the same host, or a Unix socket (a server in a network namespace, tests/support/vllm_server.py)."""

import socket
import threading
from pathlib import Path


class TcpProxy:
    def __init__(self, target_port: int = 0, host: str = "127.0.0.1", unix_socket: Path | None = None):
        self.host = host
        self.target_port = target_port
        self.unix_socket = unix_socket
        self.port = 0
        self._listener: socket.socket | None = None
        self._connections: set[socket.socket] = set()
        self._lock = threading.Lock()

    @property
    def address(self) -> str:
        return f"http://{self.host}:{self.port}"

    def restore(self) -> None:
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self.port))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        with self._lock:
            connections, self._connections = self._connections, set()
        for connection in connections:
            _close(connection)

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = self._connect()
            except OSError:
                _close(client)
                continue
            with self._lock:
                self._connections |= {client, upstream}
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _connect(self) -> socket.socket:
        if self.unix_socket is None:
            return socket.create_connection((self.host, self.target_port))
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            upstream.connect(str(self.unix_socket))
        except OSError:
            upstream.close()
            raise
        return upstream

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                with self._lock:
                    self._connections.discard(end)
                _close(end)


def _close(connection: socket.socket) -> None:
    try:
        connection.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    connection.close()
