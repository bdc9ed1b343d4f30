"""The fakes keep their ports: each has every member of the Protocol it stands in for, with the
same parameters and annotations, sync or async alike; the in-memory store has nothing more
(mypy does not check the tests, so this holds them to the ports instead)."""

from __future__ import annotations

import inspect
from typing import Any, Protocol

import pytest

from service.adapters.webhook_hosts import Resolver
from service.core.ports.event_store import EventStore
from service.core.ports.scheduling import DrainScheduler
from tests.fakes.memory_store import InMemoryEventStore
from tests.fakes.resolver import TableResolver
from tests.fakes.scheduler import RecordingScheduler


def protocol_members(protocol: type) -> set[str]:
    """The public members a Protocol declares, its bases' included: methods and attributes."""
    members: set[str] = set()
    for cls in protocol.__mro__:
        if cls in (Protocol, object) or not getattr(cls, "_is_protocol", False):
            continue
        members.update(name for name in vars(cls) if not name.startswith("_"))
        members.update(name for name in getattr(cls, "__annotations__", {}) if name[0] != "_")
    return members


def shape(member: Any) -> tuple[bool, list[tuple[str, Any, bool, str]], str]:
    """A method's shape: async or not, each parameter's name, kind, whether it has a default
    and its annotation, and the return annotation (as written: the modules postpone them)."""
    signature = inspect.signature(member)
    parameters = [
        (p.name, p.kind, p.default is not p.empty, str(p.annotation))
        for p in signature.parameters.values()
    ]
    return inspect.iscoroutinefunction(member), parameters, str(signature.return_annotation)


def gaps(protocol: type, fake: type) -> list[str]:
    """What `fake` lacks of `protocol`, or has otherwise than it declares."""
    found = []
    for name in sorted(protocol_members(protocol)):
        declared = getattr(protocol, name, None)
        if not hasattr(fake, name):
            found.append(f"{name}: missing")
        elif callable(declared) and shape(declared) != shape(getattr(fake, name)):
            found.append(f"{name}: {shape(getattr(fake, name))} != {shape(declared)}")
    return found


@pytest.mark.parametrize(
    ("protocol", "fake"),
    [
        (EventStore, InMemoryEventStore),
        (DrainScheduler, RecordingScheduler),
        (Resolver, TableResolver),
    ],
)
def test_a_fake_has_every_member_of_its_port_as_declared(protocol: type, fake: type) -> None:
    assert gaps(protocol, fake) == []


def test_the_in_memory_store_has_nothing_its_port_lacks() -> None:
    public = {name for name in vars(InMemoryEventStore) if not name.startswith("_")}
    public |= {name for name in vars(InMemoryEventStore()) if not name.startswith("_")}
    assert public - protocol_members(EventStore) == set()


def test_a_member_missing_or_reshaped_is_found() -> None:
    class Narrower(Protocol):
        async def read(self, game_id: str, after: int = 0, limit: int | None = None) -> list[Any]:
            """As EventLog.read, but the return annotation differs."""
            ...

        def placed_game_id(self, head: str) -> str:
            """As CommandInbox.placed_game_id."""
            ...

        async def vanished(self) -> None:
            """No fake has it."""
            ...

    found = gaps(Narrower, InMemoryEventStore)
    assert [gap.partition(":")[0] for gap in found] == ["read", "vanished"]
    assert "list[Any]" in found[0] and found[1] == "vanished: missing"
