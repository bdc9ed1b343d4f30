"""The command path of DESIGN.md: create, submit, drain (apply a batch), sweep lost drains."""
