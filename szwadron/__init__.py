"""szwadron — the table, the odds and the points of the Szwadron Napoleonic miniatures rules.

Submodules are importable on their own and import nothing heavy at package import time, so the
command line starts fast. Dependency arrows point one way: models → geometry and dice → combat and
morale → points → plots and CLI.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
