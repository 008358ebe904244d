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

from szwadron.i18n import _
from szwadron.rulings import Ruling


class SzwadronError(Exception):
    """Base class of every error szwadron raises deliberately."""


class InvalidDataError(SzwadronError, ValueError):
    """Bad input: names the source (file), the location (field path or line) and the problem.

    >>> str(InvalidDataError("units[2].bases[0].x: expected a finite number", source="a.toml"))
    'a.toml: units[2].bases[0].x: expected a finite number'
    """

    def __init__(self, message: str, *, source: str | None = None, parameter: str | None = None) -> None:
        self.source = source
        self.detail = message
        self.parameter = parameter
        where = f"{parameter} " if parameter else ""
        super().__init__(f"{source}: {where}{message}" if source else f"{where}{message}")


class InvalidArgumentError(InvalidDataError):
    """A bad value of a library function's argument, named by the ``parameter`` (``shooter``,
    ``ammunition``); the message reads after the parameter's name, and a front end names the
    parameter as its own option (the CLI says ``--shooter 'x' is a base``).

    >>> e = InvalidArgumentError("shooter", "'x' is a base")
    >>> str(e), e.parameter, e.detail
    ("shooter 'x' is a base", 'shooter', "'x' is a base")
    """

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(message, parameter=parameter)


class IllegalActionError(SzwadronError, ValueError):
    """A well-formed request the rules forbid; ``rule`` is the rule number that forbids it.

    >>> str(IllegalActionError("6.1.3", "a panicking unit cannot be ordered to fire"))
    'a panicking unit cannot be ordered to fire (rule 6.1.3)'
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.detail = message
        super().__init__(_("{message} (rule {rule})").format(message=message, rule=rule))

    @property
    def ruling(self) -> Ruling:
        """The refusal as a :class:`~szwadron.rulings.Ruling`."""
        return Ruling(self.rule, self.detail)


class AmbiguousSituationError(SzwadronError, ValueError):
    """The rules give no single answer for this position; the message says why."""


__all__ = [
    "AmbiguousSituationError",
    "IllegalActionError",
    "InvalidArgumentError",
    "InvalidDataError",
    "SzwadronError",
]
