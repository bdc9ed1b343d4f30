"""Skald's wire contracts: msgspec Structs only, importing nothing but msgspec and the stdlib.

Schema evolution (msgspec habits): new fields get defaults; tags and types never change.
Commands forbid unknown fields; stored events tolerate them.
"""
