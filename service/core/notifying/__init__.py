"""Players' notifications, derived from games' events.

docs/operations.md, "Notifications and webhooks", describes them.
"""
