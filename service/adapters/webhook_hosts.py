"""Which webhook endpoints may be called: only hosts on public addresses.

An endpoint whose host is, or resolves to, a private, loopback, link-local, or otherwise
non-public address (IPv4 or IPv6: `127.x`, `10.x`, `169.254.x`, `::1`, `fc00::/7`,
`fe80::/10`, an IPv4-mapped IPv6 of any of these, `localhost`) would let whoever registers
it make the dispatcher call into the deployment's own network. It is refused when registered
and again at every delivery (a name may resolve elsewhere later: DNS rebinding); the
dispatcher's aiohttp connector also checks the addresses it connects to as it resolves them.
`webhook_allow_private` lifts the rule (a test's or a single-host deployment's receiver).

Names are resolved through a `Resolver`: the system's, or a stand-in the tests give.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from typing import Protocol
from urllib.parse import urlsplit

import aiohttp
from aiohttp.abc import AbstractResolver, ResolveResult

from service.core.ports.webhooks import DeliveryFailed, HostUnresolved, Poster

LOCAL_NAMES = ("localhost", "localhost.")  # and any name under them (RFC 6761)


class Resolver(Protocol):
    """Resolves a host name to its addresses."""

    async def addresses(self, host: str, port: int) -> list[str]:
        """The host's addresses (text); HostUnresolved when it has none."""
        ...


class SystemResolver:
    """The system's resolver (getaddrinfo, in the event loop's thread pool)."""

    async def addresses(self, host: str, port: int) -> list[str]:
        """The host's addresses (text); HostUnresolved when it has none."""
        try:
            found = await asyncio.get_running_loop().getaddrinfo(
                host, port, type=socket.SOCK_STREAM
            )
        except OSError as exc:
            raise HostUnresolved(f"{host} does not resolve: {exc}") from exc
        return [str(info[4][0]) for info in found]


def is_public(address: str) -> bool:
    """Whether an IP address is a public (globally routable, unicast) one."""
    ip = ipaddress.ip_address(address.partition("%")[0])  # a scoped IPv6's zone dropped
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _literal(host: str) -> str | None:
    try:
        return str(ipaddress.ip_address(host.partition("%")[0]))
    except ValueError:
        return None


class HostGuard:
    """Refuses endpoints on non-public addresses (unless private ones are allowed)."""

    def __init__(self, resolver: Resolver, allow_private: bool) -> None:
        self.resolver = resolver
        self.allow_private = allow_private

    async def refusal(self, url: str, resolve: bool = True) -> str | None:
        """Why the URL's host may not be called (None: it may). HostUnresolved when its
        name resolves to no address. With `resolve` false a name is left to whoever
        connects (a connector that checks the addresses it resolves)."""
        if self.allow_private:
            return None
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        if not host:
            return "the URL names no host"
        if host in LOCAL_NAMES or host.rstrip(".").endswith(".localhost"):
            return f"{host} is this machine (loopback)"
        literal = _literal(host)
        if literal is not None:
            addresses = [literal]
        elif not resolve:
            return None
        else:
            try:
                port = parts.port or (443 if parts.scheme == "https" else 80)
            except ValueError:
                return "the URL's port is not a number from 0 to 65535"
            addresses = await self.resolver.addresses(host, port)
        private = sorted({a for a in addresses if not is_public(a)})
        if private:
            return (
                f"{host} is or resolves to a private, loopback or link-local address "
                f"({', '.join(private)})"
            )
        return None


class GuardedPoster:
    """A Poster that first checks the endpoint's host again (it may resolve elsewhere now)."""

    def __init__(self, poster: Poster, guard: HostGuard, resolve_names: bool = True) -> None:
        self.poster = poster
        self.guard = guard
        self.resolve_names = resolve_names  # false: the poster's connector checks names

    async def post(self, url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> int:
        """The status the endpoint answered; DeliveryFailed when it did not, or may not be
        called."""
        try:
            refused = await self.guard.refusal(url, self.resolve_names)
        except HostUnresolved as exc:
            raise DeliveryFailed(str(exc)) from exc
        if refused is not None:
            raise DeliveryFailed(f"refused: {refused}")
        return await self.poster.post(url, body, headers, timeout_s)


class PublicOnlyResolver(AbstractResolver):
    """aiohttp's resolver, refusing a name with any non-public address: the addresses a
    connection is made to are those checked (no second lookup between check and connect)."""

    def __init__(self, allow_private: bool = False) -> None:
        self.allow_private = allow_private
        self._inner = aiohttp.ThreadedResolver()

    async def resolve(
        self, host: str, port: int = 0, family: socket.AddressFamily = socket.AF_INET
    ) -> list[ResolveResult]:
        """The host's addresses; OSError when any is not public."""
        found = await self._inner.resolve(host, port, family)
        if not self.allow_private:
            private = sorted({r["host"] for r in found if not is_public(r["host"])})
            if private:
                raise OSError(f"{host} resolves to a non-public address ({', '.join(private)})")
        return found

    async def close(self) -> None:
        """Release the resolver."""
        await self._inner.close()
