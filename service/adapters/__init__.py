# Registers Redis's exceptions as the store's failures (service.core.ports.failures) as soon as
# any adapter is imported.
from service.adapters import redis_outage as _redis_outage  # noqa: F401
