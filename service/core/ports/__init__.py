"""The core's ports: what the core, the facade and history need of storage and of the outside,
as Protocols typed by what their users call, with the records they speak. The Redis adapters
implement them (structurally: mypy checks each one where the composition root, service.bootstrap,
hands it down), so nothing above the adapters imports one. One module per family:

- records, command_keys: what the store keeps about a game (meta, head, events, commands);
- event_store: the event log, the command inbox, the stored projections and the drain's rounds;
- failures: which of the store's exceptions mean an outage or a lost connection;
- views, seats, deadlines, scheduling: the stored views, seats and lobby, turn deadlines, and
  where drain runners go;
- notifier, notifications: version updates to listeners, players' notification feeds;
- players, ratings, webhooks: player accounts and seats, the ratings' log and boards, webhook
  endpoints and deliveries;
- archive, archive_record, inspection: cold storage, and a game's keys as repair reads them;
- connections: the clients the facade pings and closes, and per-address counters.
"""
