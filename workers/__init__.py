"""RQ job functions and the worker process (`python -m workers.main`)."""
