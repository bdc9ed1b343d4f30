"""`python -m service.cli` is `skald`."""

import sys

from service.cli import main

sys.exit(main())
