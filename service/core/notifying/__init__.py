"""Players' notifications, derived from games' events (docs/architecture.md, "Notifications")."""
