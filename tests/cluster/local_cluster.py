"""A Redis Cluster of this process's own on free loopback ports: 3 masters and 3 replicas
(`redis-server --cluster-enabled yes`, joined by `redis-cli --cluster create`).

Each node keeps an append-only file fsynced every second in its own directory. `kill_master`
SIGKILLs the master of a slot and waits until its replica has taken over; `kill` does not
wait.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

START_TIMEOUT_S = 30.0
FIRST_PORT = 12000  # the nodes' ports start here, their buses 10000 higher


def free_ports(count: int) -> list[int]:
    """`count` loopback ports free now, and their cluster-bus ports (+10000) too, both below
    the kernel's range of ephemeral ports: a port in that range can be taken by any outgoing
    connection between this check and the node's start (which then fails to listen)."""
    ceiling = min(_ephemeral_floor() - 10000, 65535 - 10000)
    candidates = list(range(FIRST_PORT, ceiling))
    random.Random(os.getpid()).shuffle(candidates)
    ports: list[int] = []
    for port in candidates:
        if _free(port) and _free(port + 10000):
            ports.append(port)
            if len(ports) == count:
                return ports
    raise RuntimeError(f"fewer than {count} free port pairs below {ceiling}")


def _ephemeral_floor() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@dataclass
class LocalCluster:
    """The nodes of one cluster: their ports and processes."""

    root: Path
    node_timeout_ms: int = 2000
    ports: list[int] = field(default_factory=list)
    processes: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        """A URL of one node, for the cluster client to discover the others from."""
        return f"redis://127.0.0.1:{self.alive_ports()[0]}/0"

    def alive_ports(self) -> list[int]:
        """The ports of the nodes still running."""
        return [port for port in self.ports if self.processes[port].poll() is None]

    def start(self, nodes: int = 6, replicas: int = 1) -> LocalCluster:
        """Start the nodes, join them into a cluster and wait until every slot is served."""
        if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
            raise RuntimeError("redis-server and redis-cli must be on the PATH")
        self.ports = free_ports(nodes)
        try:
            self._join(replicas)
        except BaseException:
            self.stop()  # no node outlives a failed start
            raise
        return self

    def _join(self, replicas: int) -> None:
        for port in self.ports:
            self._spawn(port)
        for port in self.ports:
            self._wait_ping(port)
        addresses = [f"127.0.0.1:{port}" for port in self.ports]
        subprocess.run(
            [
                "redis-cli",
                "--cluster",
                "create",
                *addresses,
                "--cluster-replicas",
                str(replicas),
                "--cluster-yes",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            timeout=START_TIMEOUT_S,
        )
        self.wait_healthy()
        if replicas:
            self.wait_replicated()

    def _spawn(self, port: int) -> None:
        directory = self.root / str(port)
        directory.mkdir(parents=True, exist_ok=True)
        self.processes[port] = subprocess.Popen(
            [
                "redis-server",
                "--port", str(port),
                "--bind", "127.0.0.1",
                "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", str(self.node_timeout_ms),
                "--appendonly", "yes",
                "--appendfsync", "everysec",
                "--save", "",
                "--dir", str(directory),
                "--logfile", "redis.log",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def restart(self, port: int) -> None:
        """Start a killed node again on its data: it rejoins as a replica of the master that
        took its slots. Returns once every master has a replica in sync again."""
        self._spawn(port)
        self._wait_ping(port)
        self.wait_healthy()
        self.wait_replicated()

    def _wait_ping(self, port: int) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.processes[port].poll() is not None:
                raise RuntimeError(f"redis-server on port {port} exited at start")
            try:
                if redis.Redis(port=port, socket_timeout=1).ping():
                    return
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server on port {port} did not start")

    def info(self, port: int) -> dict[str, str]:
        """CLUSTER INFO of one node."""
        client = redis.Redis(port=port, socket_timeout=2)
        try:
            reply = client.execute_command("CLUSTER INFO")
        finally:
            client.close()
        return {str(k): str(v) for k, v in reply.items()}

    def wait_healthy(self) -> None:
        """Wait until every live node says the cluster is ok and serves every slot."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            try:
                infos = [self.info(port) for port in self.alive_ports()]
            except redis.exceptions.RedisError:
                infos = []
            if infos and all(
                i.get("cluster_state") == "ok" and i.get("cluster_slots_ok") == "16384"
                for i in infos
            ):
                return
            time.sleep(0.1)
        raise RuntimeError("the cluster did not become healthy")

    def masters(self) -> dict[int, list[tuple[int, int]]]:
        """Each live master's port and the slot ranges it serves."""
        client = redis.Redis(port=self.alive_ports()[0], socket_timeout=2)
        try:
            slots = client.execute_command("CLUSTER SLOTS")
        finally:
            client.close()
        masters: dict[int, list[tuple[int, int]]] = {}
        for start, end, master, *_ in slots:
            masters.setdefault(int(master[1]), []).append((int(start), int(end)))
        return masters

    def wait_replicated(self) -> None:
        """Wait until every master has a replica in sync with it (failover possible)."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            linked = []
            for port in self.masters():
                client = redis.Redis(port=port, socket_timeout=2)
                try:
                    replica = client.info("replication").get("slave0")
                    linked.append(isinstance(replica, dict) and replica.get("state") == "online")
                finally:
                    client.close()
            if all(linked):
                return
            time.sleep(0.1)
        raise RuntimeError("the replicas did not connect to their masters")

    def kill(self, port: int) -> None:
        """SIGKILL one node and return at once (its replica takes over only after the node
        timeout)."""
        self.processes[port].send_signal(signal.SIGKILL)
        self.processes[port].wait()

    def kill_master(self, port: int | None = None) -> int:
        """SIGKILL one master (the first one when not named); wait for its replica to take
        over. Returns the port killed."""
        victim = port if port is not None else sorted(self.masters())[0]
        self.kill(victim)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            try:
                if victim not in self.masters():
                    self.wait_healthy()
                    return victim
            except (redis.exceptions.RedisError, RuntimeError):
                pass
            time.sleep(0.1)
        raise RuntimeError("no replica took over from the killed master")

    def stop(self) -> None:
        """Stop every node (SIGKILL: their data is this run's only)."""
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait()
