"""The package's exceptions.

Every exception szwadron raises on purpose derives from :class:`SzwadronError`. Three kinds:

- :class:`InvalidDataError` — the input itself is wrong (a file, a field, a command-line value).
  It names where (file, field path or line) and what was expected. The CLI turns it into one
  message and exit code 2.
- :class:`IllegalActionError` — the input is well formed but the rules forbid what it asks
  (a panicking unit ordered to fire, 6.1.3). It carries the rule number.
- :class:`AmbiguousSituationError` — the rules give no single answer for this position.
"""

from __future__ import annotations


class SzwadronError(Exception):
    """Base class of every error szwadron raises deliberately."""


class InvalidDataError(SzwadronError, ValueError):
    """Bad input: names the source (file), the location (field path or line) and the problem.

    >>> str(InvalidDataError("units[2].bases[0].x: expected a finite number", source="a.toml"))
    'a.toml: units[2].bases[0].x: expected a finite number'
    """

    def __init__(self, message: str, *, source: str | None = None) -> None:
        self.source = source
        self.detail = message
        super().__init__(f"{source}: {message}" if source else message)


class IllegalActionError(SzwadronError, ValueError):
    """A well-formed request the rules forbid; ``rule`` is the rule number that forbids it.

    >>> str(IllegalActionError("6.1.3", "a panicking unit cannot be ordered to fire"))
    'a panicking unit cannot be ordered to fire (rule 6.1.3)'
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.detail = message
        super().__init__(f"{message} (rule {rule})")


class AmbiguousSituationError(SzwadronError, ValueError):
    """The rules give no single answer for this position; the message says why."""


__all__ = [
    "AmbiguousSituationError",
    "IllegalActionError",
    "InvalidDataError",
    "SzwadronError",
]
