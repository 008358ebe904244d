"""Keep szwadron's message catalogs (issue 19): extract, update, compile, report.

    python scripts/catalog.py update     # extract every _()/ngettext()/N_() message of szwadron/
                                         # into the Polish catalog (new ones untranslated, gone ones
                                         # dropped), then compile it
    python scripts/catalog.py compile    # szwadron/locale/pl/LC_MESSAGES/szwadron.po -> .mo
    python scripts/catalog.py missing    # the message ids without a (non-fuzzy) Polish translation

The same as ``pybabel extract -F babel.cfg`` / ``pybabel update`` / ``pybabel compile`` (Babel's API,
with the catalog's settings written once here): no source locations, so that a moved line does not
change the catalog. ``tests/test_i18n.py`` checks that the committed catalog is complete and that the
committed ``.mo`` is the compiled ``.po``.
"""

from __future__ import annotations

import argparse
import datetime
import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "szwadron"
LANGUAGES = ("pl",)
#: A fixed date for the catalog's header, so that an update with no new message changes nothing
#: (and branches that each add messages do not conflict on the date).
HEADER_DATE = datetime.datetime(2026, 11, 26, tzinfo=datetime.UTC)
HEADER_COMMENT = """\
# Szwadron in Polish, in the rulebook's own terms (docs/glossary.md); kept by hand.
# Update and compile with: python scripts/catalog.py update (see docs/decisions.md "Languages").
# This file is distributed under the same license as the szwadron project (MIT)."""
#: Polish has three plural forms: 1 figura; 2-4, 22-24 figury; 0, 5-21, 25 figur.
PLURAL_FORMS = "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"


def po_path(lang: str) -> Path:
    return PACKAGE / "locale" / lang / "LC_MESSAGES" / "szwadron.po"


def extract_template() -> Catalog:
    """Every message of the package's Python source (``_``, ``gettext``, ``ngettext``, ``N_``)."""
    template = Catalog(project="szwadron", fuzzy=False, creation_date=HEADER_DATE)
    keywords = dict(DEFAULT_KEYWORDS)
    for filename, lineno, message, comments, context in extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=keywords, comment_tags=("TRANSLATORS:",)
    ):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    # the command line's help, translated when shown (szwadron.cli._TranslatedHelp): its texts as
    # the parser holds them, in English
    from szwadron.cli import help_texts
    from szwadron.i18n import language

    with language("en"):
        for text in help_texts():
            if text not in template:
                template.add(text, None, [("szwadron/cli", 0)], auto_comments=["--help"])
    return template


def read_catalog(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang, domain="szwadron")


def write_catalog(catalog: Catalog, lang: str) -> None:
    catalog.creation_date = HEADER_DATE
    catalog.revision_date = HEADER_DATE
    catalog.header_comment = HEADER_COMMENT
    catalog.project, catalog.version = "szwadron", "1"
    catalog.last_translator = "szwadron developers"
    catalog.language_team = "Polish"
    catalog.msgid_bugs_address = ""
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=110, no_location=True, omit_header=False, sort_output=False)
    po_path(lang).write_bytes(buffer.getvalue())


def compiled(lang: str) -> bytes:
    """The ``.mo`` of the committed ``.po``."""
    buffer = io.BytesIO()
    write_mo(buffer, read_catalog(lang), use_fuzzy=False)
    return buffer.getvalue()


def update(lang: str) -> None:
    template = extract_template()
    path = po_path(lang)
    if path.is_file():
        catalog = read_catalog(lang)
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        catalog = Catalog(locale=lang, domain="szwadron", project="szwadron", fuzzy=False)
    catalog.update(template, no_fuzzy_matching=True)
    catalog.obsolete.clear()
    write_catalog(catalog, lang)


def missing(lang: str) -> list[str]:
    """The message ids of the template with no translation (or a fuzzy one) in ``lang``."""
    catalog = read_catalog(lang)
    out = []
    for message in extract_template():
        if not message.id:
            continue
        found = catalog.get(message.id, message.context)
        strings = found.string if found is not None else None
        if isinstance(strings, (tuple, list)):
            ok = all(strings)
        else:
            ok = bool(strings)
        if found is None or found.fuzzy or not ok:
            out.append(message.id if isinstance(message.id, str) else message.id[0])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("action", choices=["update", "compile", "missing"])
    args = ap.parse_args()
    for lang in LANGUAGES:
        if args.action == "update":
            update(lang)
        if args.action in ("update", "compile"):
            mo = po_path(lang).with_suffix(".mo")
            mo.write_bytes(compiled(lang))
            print(f"{mo.relative_to(REPO)}: {len(read_catalog(lang))} messages")
        if args.action in ("update", "missing"):
            gaps = missing(lang)
            for msgid in gaps:
                print(f"missing ({lang}): {msgid!r}", file=sys.stderr)
            print(f"{lang}: {len(gaps)} message(s) without a translation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
