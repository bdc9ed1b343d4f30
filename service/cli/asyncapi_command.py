"""`skald asyncapi`: print the AsyncAPI document (the socket's and the streams' messages)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from service.api import create_litestar
from service.api.asyncapi import asyncapi_json
from service.cli.openapi_command import write_document
from service.shared.settings import Settings


def add_parser(subparsers: Any) -> None:
    """Register `skald asyncapi`."""
    parser = subparsers.add_parser(
        "asyncapi",
        help="print the AsyncAPI document",
        description="Print the AsyncAPI 3 document of the live channels: a seat's WebSocket, "
        "the game's event stream and a player's notification stream, typed by the OpenAPI "
        "document's schemas.",
    )
    parser.add_argument("--output", "-o", type=Path, help="write to this file, not stdout")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the document; building the app does not connect to Redis."""
    return write_document(args, asyncapi_json(create_litestar(Settings.from_env())))
