"""The language of the text for a person: English, or Polish in the rulebook's own terms (issue 19).

Standard ``gettext`` with the domain ``szwadron``; the catalogs live in
``szwadron/locale/LANG/LC_MESSAGES/szwadron.po`` (the translation, kept by hand) and ``.mo`` (compiled
by ``pybabel compile``, shipped in the wheel). English is the source language and needs no catalog.

A command chooses the language once (:func:`set_language`, from ``--lang`` or the environment,
:func:`language_from_environment`); every message built afterwards goes through :func:`_` or
:func:`ngettext` and comes out in that language. Only text for a person is translated: ``--json``
keys and enumerated values (``"panic"``, ``"repulsed"``) stay English, and the JSON ``message``
fields carry the translated text.

    >>> with language("pl"):
    ...     ngettext("{n} figure", "{n} figures", 22).format(n=22)
    '22 figurki'
    >>> ngettext("{n} figure", "{n} figures", 22).format(n=22)
    '22 figures'

Ground module: imports nothing of szwadron.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

#: The gettext domain of szwadron's catalogs.
DOMAIN = "szwadron"
#: The folder of the catalogs (``LANG/LC_MESSAGES/szwadron.mo``), inside the package.
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: The languages szwadron speaks; English is the source language.
LANGUAGES: tuple[str, ...] = ("en", "pl")
DEFAULT_LANGUAGE = "en"

_translations: dict[str, _gettext.NullTranslations] = {}
_current: _gettext.NullTranslations = _gettext.NullTranslations()
_current_language = DEFAULT_LANGUAGE


def _translation(lang: str) -> _gettext.NullTranslations:
    if lang not in _translations:
        if lang == DEFAULT_LANGUAGE:
            _translations[lang] = _gettext.NullTranslations()
        else:
            # fallback=False: a missing catalog is a packaging bug, not a reason to speak English
            _translations[lang] = _gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang])
    return _translations[lang]


def set_language(lang: str) -> None:
    """Speak ``lang`` (one of :data:`LANGUAGES`) from now on, in this process.

    >>> set_language("fr")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'fr': expected one of en, pl
    """
    global _current, _current_language
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}: expected one of {', '.join(LANGUAGES)}")
    _current = _translation(lang)
    _current_language = lang


def current_language() -> str:
    """The language messages are built in now (``"en"`` or ``"pl"``)."""
    return _current_language


@contextmanager
def language(lang: str) -> Iterator[None]:
    """Speak ``lang`` inside the ``with`` block, then the language spoken before it."""
    before = _current_language
    set_language(lang)
    try:
        yield
    finally:
        set_language(before)


def language_from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language of the locale: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set
    (POSIX precedence) decides; ``pl``, ``pl_PL.UTF-8`` speak Polish, anything else English.

    >>> language_from_environment({"LANG": "pl_PL.UTF-8"})
    'pl'
    >>> language_from_environment({"LC_ALL": "C.UTF-8", "LANG": "pl_PL.UTF-8"})
    'en'
    >>> language_from_environment({"LC_MESSAGES": "pl_PL", "LANG": "de_DE"}), language_from_environment({})
    ('pl', 'en')
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            code = value.split(".")[0].split("@")[0].split("_")[0].lower()
            return code if code in LANGUAGES else DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def _(message: str) -> str:
    """``message`` (English, the msgid) in the current language."""
    return _current.gettext(message)


def gettext(message: str) -> str:
    """The same as :func:`_`, under its standard name."""
    return _current.gettext(message)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, where the same English word needs another one in
    ``context`` (a morale state "removed" is *usunięty*, figures "removed" are *zdjęte*)."""
    return _current.pgettext(context, message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` in the current language: English has two, Polish three (1 figura,
    2-4, 22-24 figury, 5-21, 25 figur; the ``Plural-Forms`` of the catalog)."""
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it now (a constant translated where it
    is shown, with :func:`_`)."""
    return message


#: The words for a person of the enumerated values that ``--json`` keeps in English: morale
#: states (6.1.1) and outcomes (5.5, 6.3), kinds of units (1.2, 7.2), base edges (4.4.1), terrain
#: (3.2, 4.10). docs/glossary.md gives the rulebook's term and rule of each.
TERMS: dict[str, str] = {
    # morale states (6.1.1) and outcomes of a test (6.3, 5.5)
    "normal": N_("normal"),
    "panic": N_("panic"),
    "pursuit": N_("pursuit"),
    "uncontrolled pursuit": N_("uncontrolled pursuit"),
    "passed": N_("passed"),
    "repulsed": N_("repulsed"),
    "destroyed": N_("destroyed"),
    "held": N_("held"),
    "engaged": N_("engaged"),
    "no test": N_("no test"),
    "no_test": N_("no test"),
    # the branches of the morale machine's events (szwadron.odds.machine, section 6)
    "failed": N_("failed"),
    "automatic": N_("automatic"),
    "already": N_("already"),
    "obeys": N_("obeys"),
    "fights_back": N_("fights back"),
    "strikes_back": N_("strikes back"),
    "no_losses": N_("no losses"),
    "next_target": N_("next target"),
    "retreated": N_("retreated"),
    "cannot_move": N_("cannot move"),
    "fled": N_("fled"),
    "surrendered": N_("surrendered"),
    # actions (2.3) and phases (2.1.2)
    "move": N_("move"),
    "fire": N_("fire"),
    "march": N_("fire on the march"),
    "march_move": N_("the half move of a fire on the march"),
    "march_fire": N_("the fire of a fire on the march"),
    "fire_move": N_("fire and a move after it"),
    "charge": N_("charge"),
    "melee": N_("melee"),
    "fight": N_("fight"),
    "movement": N_("movement"),
    "place": N_("place"),
    "turn": N_("turn"),
    "morale": N_("morale"),
    # the sides of a melee (5.1.3)
    "attacker": N_("attacker"),
    "defender": N_("defender"),
    # kinds (1.2, 7.2)
    "infantry": N_("infantry"),
    "cavalry": N_("cavalry"),
    "foot_artillery": N_("foot artillery"),
    "horse_artillery": N_("horse artillery"),
    "artillery": N_("artillery"),
    "limber": N_("limber"),
    # the terms of the points model (szwadron.armies.points) and special rules (section 7)
    "skirmish": N_("skirmish order"),
    "heavy": N_("heavy artillery"),
    "measured": N_("measured"),
    "first_strike": N_("first strike"),
    "first_strike_charge": N_("first strike on the charge"),
    "first_strike_defence": N_("first strike in defence"),
    "auto_disengage": N_("automatic break-off"),
    "indirect": N_("indirect fire"),
    # base edges (4.4.1)
    "front": N_("front"),
    "rear": N_("rear"),
    "back": N_("rear"),
    "left": N_("left"),
    "right": N_("right"),
    # base corners (the corner whose path is measured) and the centre a unit turns about
    "front-left": N_("front-left"),
    "front-right": N_("front-right"),
    "back-left": N_("back-left"),
    "back-right": N_("back-right"),
    "centre": N_("centre"),
    # terrain (3.2, 4.10)
    "hill": N_("hill"),
    "forest": N_("forest"),
    "rough": N_("rough ground"),
    "obstacle": N_("obstacle"),
    "high_wall": N_("high wall"),
    "building": N_("building"),
    "fortification": N_("fortification"),
    "impassable": N_("impassable terrain"),
    # dice (1.5.1: K6, K10)
    "d6": N_("d6"),
    "d10": N_("d10"),
    # the morale tests of a game's dice (6.3, 6.4, 6.8.4, 6.6.2)
    "repulse": N_("repulse"),
    "reorganise": N_("reorganise"),
    "flight": N_("flight"),
    "passed through": N_("passed through"),
    "break_off": N_("break off"),
    "disengage": N_("disengage"),
    "declare": N_("declared fire"),
    "push_up": N_("push-up"),
    "pass": N_("pass"),
    # the tests of a rolled melee (5.5, 6.3, 6.6.4)
    "attacker repulse": N_("attacker repulse"),
    "attacker panic": N_("attacker panic"),
    "attacker pursuit": N_("attacker pursuit"),
    "defender repulse": N_("defender repulse"),
    "defender panic": N_("defender panic"),
    "defender pursuit": N_("defender pursuit"),
}


def term(value: str) -> str:
    """An enumerated value (a morale state, an outcome, a kind, an edge, a terrain) in words of
    the current language; any other value, and every value in English, as it is (so that the
    English text does not change; a caller that wrote ``foot_artillery`` as ``foot artillery``
    still replaces the underscore).

    >>> term("repulsed"), term("fr-line-1")
    ('repulsed', 'fr-line-1')
    >>> with language("pl"):
    ...     term("repulsed"), term("panic"), term("pursuit")
    ('odrzucony', 'panika', 'pościg')
    """
    if _current_language == DEFAULT_LANGUAGE or value not in TERMS:
        return value  # English shows the value itself, as before
    return _current.gettext(TERMS[value])


__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "LOCALE_DIR",
    "N_",
    "TERMS",
    "_",
    "current_language",
    "gettext",
    "language",
    "language_from_environment",
    "ngettext",
    "pgettext",
    "set_language",
    "term",
]
