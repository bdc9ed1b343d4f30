"""Hand-written fakes for tests: a small game meeting the whole domain.engine.Game protocol."""
