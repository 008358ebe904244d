"""The ``szwadron`` command line: it parses, calls the library, prints.

Each command lives in its own module ``szwadron.cli.<name>`` exposing ``register(subparsers)``,
which adds the command's parser and sets ``func`` to a ``run(args) -> int`` function. Command
modules import only the standard library at import time; the library (shapely, numpy, ...) is
imported inside ``run`` so that ``szwadron --help`` and light commands start fast.

Exit codes (docs/decisions.md "The command line"): 0 success, 1 the answer is "no" where a
command says so, 2 bad input or usage (one message naming the file, the field or line, and what
was expected; never a traceback), 3 an internal error — a bug in szwadron, not in the input. It
is reported in one message too, with the exception's type, and ``--debug`` (before or after the
command) shows the traceback instead. 130: interrupted (Ctrl-C).

``-`` stands for standard input on every file argument (a scenario, a move file, an army list
or roster file), once per command, and for standard output where the output allows it
(``plot -o -``); see :mod:`szwadron.files`.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

from szwadron import __version__
from szwadron.errors import InvalidDataError, SzwadronError
from szwadron.i18n import (
    LANGUAGES,
    N_,
    _,
    current_language,
    language_from_environment,
    ngettext,
    set_language,
)

#: Exit code of an internal error (a bug): not 2, which says the input is at fault.
EXIT_INTERNAL_ERROR = 3

_DEBUG_HELP = N_("on an internal error (a bug), show the Python traceback instead of one line")
_LANG_HELP = N_(
    "the language of the answers, messages, pictures and help: pl (the rulebook's terms) or en;"
    " default from LC_ALL, LC_MESSAGES or LANG (pl_PL.UTF-8 speaks Polish), else en"
)

#: Command modules, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "check",
    "measure",
    "remainder",
    "odds",
    "fire",
    "targets",
    "move",
    "melee",
    "reach",
    "morale",
    "place",
    "turn",
    "replay",
    "plot",
    "points",
    "balance",
    "serve",
    "completion",
)


class _TranslatedHelp(argparse.HelpFormatter):
    """A help formatter that writes each option's help and each section's title in the chosen
    language: the English text is the message id (:func:`help_texts` collects them for the
    catalog), translated when the help is shown, so that the command modules keep plain strings."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        return _(action.help) if action.help else action.help

    def start_section(self, heading: str | None) -> None:
        super().start_section(_(heading) if heading else heading)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr and exit code 2, and whose help
    speaks the chosen language (:class:`_TranslatedHelp`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _TranslatedHelp)
        super().__init__(*args, **kwargs)

    def format_help(self) -> str:
        saved = self.description, self.epilog
        self.description = _(self.description) if self.description else self.description
        self.epilog = _(self.epilog) if self.epilog else self.epilog
        try:
            return super().format_help()
        finally:
            self.description, self.epilog = saved

    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(2, _("{prog}: error: {message}").format(prog=self.prog, message=message) + "\n")


def build_parser() -> argparse.ArgumentParser:
    """The full parser with every command registered."""
    parser = _Parser(
        prog="szwadron",
        description="Table geometry, exact odds and army-list points for the Szwadron rules.",
    )
    parser.add_argument(
        "--version", action="version", version=f"szwadron {__version__}", help="show the version and exit"
    )
    parser.add_argument("--debug", action="store_true", help=_DEBUG_HELP)
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help=_LANG_HELP)
    sub = parser.add_subparsers(dest="command", metavar=_("COMMAND"), parser_class=_Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"szwadron.cli.{name}")
        module.register(sub)
    _add_debug(sub)
    return parser


def _add_debug(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """``--debug`` after the command too (``szwadron fire ... --debug``), in every (sub)command;
    SUPPRESS keeps a subcommand from resetting a ``--debug`` given before it."""
    for command in set(subparsers.choices.values()):
        if "--debug" not in command._option_string_actions:
            command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=_DEBUG_HELP)
        if "--lang" not in command._option_string_actions:
            command.add_argument("--lang", choices=LANGUAGES, default=argparse.SUPPRESS, help=_LANG_HELP)
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                _add_debug(action)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code. The language it chose (``--lang``) is the
    process's only while it runs: a program or test that calls :func:`main` keeps its own after."""
    previous = current_language()
    try:
        return _run(list(sys.argv[1:] if argv is None else argv))
    finally:
        set_language(previous)


def _run(arguments: list[str]) -> int:
    """:func:`main`'s body: parse ``arguments``, run the command, map errors to exit codes."""
    # the language is chosen once, before the parser is built, so that --help speaks it too
    set_language(requested_language(arguments))
    # argparse's own words ("usage:", "options", its errors) through szwadron's catalog
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
    try:
        args = build_parser().parse_args(arguments)
    except Exception as exc:  # a bug in a command's options (usage errors exit in argparse)
        if "--debug" in arguments:
            raise
        return _internal_error("szwadron", exc)
    command = _command_name(args)
    if len(_stdin_arguments(args)) > 1:
        print(
            _(
                "szwadron {command}: error: standard input ('-') can stand for one file only, given for {names}"
            ).format(command=command, names=", ".join(_stdin_arguments(args))),
            file=sys.stderr,
        )
        return 2
    code: int | None = None
    try:
        with warnings.catch_warnings():
            if not getattr(args, "debug", False):  # numpy's "overflow encountered", ...: noise
                warnings.simplefilter("ignore", RuntimeWarning)
                # matplotlib giving up on a layout: the picture is still written (issue 16)
                warnings.filterwarnings("ignore", message=r"(constrained_layout|Tight layout) not applied")
            code = int(args.func(args))
        sys.stdout.flush()  # a reader that went away shows here, while the status is known
        return code
    except SzwadronError as exc:
        print(
            _("szwadron {command}: error: {message}").format(command=command, message=error_text(exc)),
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        print(_("szwadron: interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader of the output went away (`szwadron check --strict ... | head -1`): never
        # success by accident (issue 16). The command's own status when it had finished, else
        # 141 = 128 + SIGPIPE, as the shell reports a Unix tool that died of the signal.
        _silence_stdout()
        return code if code is not None else EXIT_BROKEN_PIPE
    except OSError as exc:
        # a file the command could not read or write (no permission, a full disk): the
        # environment, not the program, is at fault; bad input or usage
        if getattr(args, "debug", False):
            raise
        where = f"{exc.filename}: " if exc.filename else ""
        print(
            _("szwadron {command}: error: {message}").format(
                command=command, message=f"{where}{exc.strerror or exc}"
            ),
            file=sys.stderr,
        )
        return 2
    except Exception as exc:  # a bug: one message, not a traceback, unless --debug
        if getattr(args, "debug", False):
            raise
        return _internal_error(f"szwadron {command}", exc)


def requested_language(arguments: Sequence[str]) -> str:
    """The language of a command line: its last ``--lang L`` (or ``--lang=L``) that names a
    language szwadron speaks, else the environment's (:func:`~szwadron.i18n.language_from_environment`).
    An unknown one is left to the parser to refuse.

    >>> requested_language(["check", "a.toml", "--lang", "pl"]), requested_language(["--lang=en", "odds"])
    ('pl', 'en')
    """
    chosen = None
    for i, word in enumerate(arguments):
        if word == "--":
            break
        value = None
        if word == "--lang" and i + 1 < len(arguments):
            value = arguments[i + 1]
        elif word.startswith("--lang="):
            value = word.split("=", 1)[1]
        if value in LANGUAGES:
            chosen = value
    return chosen or language_from_environment()


def help_texts(parser: argparse.ArgumentParser | None = None) -> Iterator[str]:
    """Every text of the parser's help (descriptions, epilogs, options' help, section titles),
    in English: the message ids :class:`_TranslatedHelp` translates (``scripts/catalog.py`` adds
    them to the catalog)."""
    parser = parser or build_parser()
    seen: set[int] = set()

    def walk(p: argparse.ArgumentParser) -> Iterator[str]:
        if id(p) in seen:
            return
        seen.add(id(p))
        for text in (p.description, p.epilog):
            if text:
                yield text
        for group in p._action_groups:
            if group.title:
                yield group.title
        for action in p._actions:
            if action.help and action.help != argparse.SUPPRESS:
                yield action.help
            if isinstance(action, argparse._SubParsersAction):
                for choice in action._choices_actions:
                    if choice.help and choice.help != argparse.SUPPRESS:
                        yield choice.help
                for child in action.choices.values():
                    yield from walk(child)

    yield from walk(parser)


#: Library parameters whose command-line option is not ``--`` + the name with dashes.
_FLAG_OF_PARAMETER: dict[str, str] = {"ammunition": "--ammo"}


def option_of(parameter: str) -> str:
    """The command-line option of a library parameter: ``ammunition`` is ``--ammo``,
    ``after_fire`` is ``--after-fire``.

    >>> option_of("after_fire"), option_of("ammunition")
    ('--after-fire', '--ammo')
    """
    return _FLAG_OF_PARAMETER.get(parameter, "--" + parameter.replace("_", "-"))


def error_text(exc: SzwadronError) -> str:
    """The message of a deliberate error, a library parameter named as its option.

    >>> from szwadron.errors import InvalidArgumentError
    >>> error_text(InvalidArgumentError("shooter", "'x/1' is a base; give the unit id 'x'"))
    "--shooter 'x/1' is a base; give the unit id 'x'"
    """
    if isinstance(exc, InvalidDataError) and exc.parameter and exc.source is None:
        return f"{option_of(exc.parameter)} {exc.detail}"
    return str(exc)


#: Exit status of a command whose output pipe closed before it finished: 128 + SIGPIPE (13).
EXIT_BROKEN_PIPE = 141


def _silence_stdout() -> None:
    """Point standard output at the null device, so the interpreter's last flush finds no
    broken pipe (Python's documented recipe for SIGPIPE)."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):  # no real file descriptor (a test's capture)
        pass


def _internal_error(prog: str, exc: BaseException) -> int:
    """Report a bug in one message on stderr; return :data:`EXIT_INTERNAL_ERROR`."""
    if isinstance(exc, MemoryError):
        what = _("out of memory")
    else:
        lines = str(exc).strip().splitlines()
        text = lines[0] if lines else ""
        if len(text) > 200:
            text = text[:200] + "…"
        what = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    print(
        _("{prog}: internal error: {what}").format(prog=prog, what=what)
        + "\n  "
        + _(
            "this is a bug in szwadron, not in your input: please report it with the command line"
            " and its input files"
        )
        + "\n  "
        + _("rerun with --debug to see the traceback"),
        file=sys.stderr,
    )
    return EXIT_INTERNAL_ERROR


#: Options whose ``-`` is standard output, not standard input.
_OUTPUT_OPTIONS = frozenset({"output", "plot"})


def _stdin_arguments(args: argparse.Namespace) -> list[str]:
    """The arguments given as ``-`` (standard input), by destination name; ``UNIT:-`` counts."""
    return [
        name
        for name, value in vars(args).items()
        if name not in _OUTPUT_OPTIONS
        and (value == "-" or (isinstance(value, (tuple, list)) and "-" in value))
    ]


def _command_name(args: argparse.Namespace) -> str:
    """``fire``, or ``odds fire`` for a command with a question."""
    question = getattr(args, "question", None)
    return f"{args.command} {question}" if args.command == "odds" and question else args.command


__all__ = [
    "COMMAND_MODULES",
    "EXIT_BROKEN_PIPE",
    "EXIT_INTERNAL_ERROR",
    "build_parser",
    "help_texts",
    "main",
    "requested_language",
]
