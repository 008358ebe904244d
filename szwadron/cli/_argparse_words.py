"""argparse's own words, marked for szwadron's catalog (issue 19).

argparse looks its words up through a module-level ``_`` (and ``ngettext``) at the moment it
writes them; :func:`szwadron.cli.main` points those at :mod:`szwadron.i18n`, so that ``--help`` and
the usage errors speak the chosen language. The message ids below are argparse's, verbatim
(Python 3.11-3.13), so that the catalog holds their translations.

Standard library only.
"""

from __future__ import annotations

from szwadron.i18n import N_, ngettext

ARGPARSE_WORDS: tuple[str, ...] = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("not allowed with argument %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)


def expected_arguments(n: int) -> str:
    """argparse's plural (``expected %s argument(s)``), here so that the catalog has it."""
    return ngettext("expected %s argument", "expected %s arguments", n) % n


__all__ = ["ARGPARSE_WORDS", "expected_arguments"]
