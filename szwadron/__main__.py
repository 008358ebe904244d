"""``python -m szwadron`` — the same entry point as the ``szwadron`` console script."""

from szwadron.cli import main

raise SystemExit(main())
