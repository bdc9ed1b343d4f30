"""A name resolver that answers from a table: webhook hosts resolved without the network."""

from __future__ import annotations

from service.core.ports.webhooks import HostUnresolved

# A public address for names the tests register (never connected to: registering only
# resolves, and the tests that deliver post through in-process transports).
PUBLIC_ADDRESS = "93.184.215.14"


class TableResolver:
    """Resolves the names of its table; any other name does not resolve."""

    def __init__(self, table: dict[str, list[str]]) -> None:
        self.table = table
        self.asked: list[str] = []

    async def addresses(self, host: str, port: int) -> list[str]:
        """The table's addresses for `host`; HostUnresolved for a name it lacks."""
        self.asked.append(host)
        if host not in self.table:
            raise HostUnresolved(f"{host} does not resolve")
        return list(self.table[host])
