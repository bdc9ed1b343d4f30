"""The core's ports: what the core, the facade and history need of storage and the outside,
as Protocols typed by what their users call, with the records they speak. The adapters
(service.adapters) implement them; the composition root (service.bootstrap) builds the adapters
and hands them down, so nothing above the adapters imports one.

- records, command_keys: what the store keeps about a game (meta, head, events, commands);
- event_store: the event log, the command inbox, the stored projections and the drain's rounds.
"""
