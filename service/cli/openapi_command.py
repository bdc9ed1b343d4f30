"""`skald openapi`: print the OpenAPI document (API messages and every game's schemas)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from service.api import create_litestar
from service.api.openapi import openapi_json
from service.shared.settings import Settings


def add_parser(subparsers: Any) -> None:
    """Register `skald openapi`."""
    parser = subparsers.add_parser(
        "openapi",
        help="print the OpenAPI document",
        description="Print the OpenAPI 3.1 document of the HTTP API, with every game's "
        "config, command, event and view schemas, for generating clients.",
    )
    parser.add_argument("--output", "-o", type=Path, help="write to this file, not stdout")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the document; building the app does not connect to Redis."""
    return write_document(args, openapi_json(create_litestar(Settings.from_env())))


def write_document(args: argparse.Namespace, document: bytes) -> int:
    """Write a document to `--output`, or to standard output without one."""
    if args.output is None:
        sys.stdout.buffer.write(document + b"\n")
    else:
        args.output.write_bytes(document + b"\n")
    return 0
