"""Storage: the event store (Redis Streams, or in memory for tests) and the game's side keys."""
