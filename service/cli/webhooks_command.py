"""`skald webhooks add|list|remove|dead-letters|replay` and `skald dispatcher`: the operator's
webhook endpoints and the deliveries given up on, and the dispatcher process alone.

They act on Redis directly (SKALD_REDIS_URL, a Redis Cluster with SKALD_REDIS_CLUSTER, or the
embedded Redis of a running `skald serve`), as the operator, so they need no admin credential.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgspec

from contracts.notifications import NOTIFICATION_KINDS
from service import bootstrap
from service.facade.webhook_side import WebhookAdmin
from service.shared.settings import ENV_PREFIX

from .archive import console
from .processes import DISPATCHER_MODULE
from .worker_command import resolve_settings

T = TypeVar("T")


def add_parser(subparsers: Any) -> None:
    """Register `skald webhooks` and `skald dispatcher`."""
    parser = subparsers.add_parser(
        "webhooks",
        help="webhook endpoints and dead letters",
        description="Register, list and remove the endpoints every notification is POSTed to "
        "(signed per Standard Webhooks), list the deliveries given up on, and replay them.",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = actions.add_parser("add", help="register an endpoint (prints it with its secret)")
    add.add_argument("url", help="http:// or https:// URL deliveries are POSTed to")
    add.add_argument(
        "--kind",
        action="append",
        default=[],
        choices=NOTIFICATION_KINDS,
        help="a notification kind to deliver (repeat; all kinds when none is named)",
    )
    add.add_argument("--secret", help="the signing secret, whsec_<base64> (made when omitted)")
    actions.add_parser("list", help="the registered endpoints")
    remove = actions.add_parser("remove", help="unregister an endpoint")
    remove.add_argument("endpoint_id")
    actions.add_parser("dead-letters", help="deliveries given up on after their last attempt")
    replay = actions.add_parser("replay", help="deliver dead letters again (all, or one)")
    replay.add_argument("delivery_id", nargs="?", help="one dead letter's id")
    parser.set_defaults(run=run)

    dispatcher = subparsers.add_parser(
        "dispatcher",
        help="run the webhook dispatcher alone",
        description="Deliver notifications to the registered webhook endpoints until "
        "interrupted (`skald serve` runs one beside its workers).",
    )
    dispatcher.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING...")
    dispatcher.set_defaults(run=run_dispatcher)


def _with_admin(work: Callable[[WebhookAdmin], Awaitable[T]]) -> T:
    settings = resolve_settings()

    async def go() -> T:
        client = bootstrap.event_client(settings)  # one Redis, or the cluster
        try:
            return await work(bootstrap.webhook_admin(settings, client))
        finally:
            await client.aclose()

    return asyncio.run(go())


def _show(value: object) -> str:
    return json.dumps(msgspec.to_builtins(value), indent=2)


def run(args: argparse.Namespace) -> int:
    """Carry out one webhooks action and print its result."""
    out = console()
    action = args.action
    if action == "add":
        endpoint = _with_admin(lambda admin: admin.add(args.url, args.kind, args.secret))
        out.print(_show(endpoint), markup=False)
    elif action == "list":
        out.print(_show(_with_admin(lambda admin: admin.list())), markup=False)
    elif action == "remove":
        _with_admin(lambda admin: admin.remove(args.endpoint_id))
        out.print(f"removed {args.endpoint_id}", markup=False)
    elif action == "dead-letters":
        letters = _with_admin(lambda admin: admin.dead_letters())
        for letter in letters:
            out.print(
                f"{letter.id}  endpoint={letter.endpoint_id} player={letter.player_id} "
                f"attempts={letter.attempts} last_error={letter.last_error!r}",
                markup=False,
            )
        out.print(f"{len(letters)} dead letter(s)", markup=False)
    else:
        count = _with_admin(lambda admin: admin.replay(args.delivery_id))
        out.print(f"{count} delivery(ies) queued again", markup=False)
        if args.delivery_id and not count:
            return 1
    return 0


def run_dispatcher(args: argparse.Namespace) -> int:
    """Become the dispatcher process (signals then reach it directly)."""
    settings = resolve_settings()
    os.environ[ENV_PREFIX + "REDIS_URL"] = settings.redis_url
    command = [sys.executable, "-m", DISPATCHER_MODULE, "--log-level", args.log_level]
    os.execv(sys.executable, command)
