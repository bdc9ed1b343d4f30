"""The running back end: storage adapters, the command pipeline, the HTTP API and the CLI."""
