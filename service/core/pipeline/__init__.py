"""The command path (docs/architecture.md): create, apply a batch, drain rounds and runners,
sweep lost drains."""
