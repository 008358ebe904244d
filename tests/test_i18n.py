"""Szwadron in Polish (issue 19): the catalog is complete and compiled, plurals follow Polish
grammar, ``--lang`` chooses the language once per command (default from the locale), and
``--json`` keys and enumerated values stay English while its ``message`` texts are translated."""

from __future__ import annotations

import gettext
import io
import json
import re
import sys
from pathlib import Path

import pytest

from szwadron.cli import main, requested_language
from szwadron.i18n import LOCALE_DIR, _, current_language, language, language_from_environment, ngettext

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "scripts"))

import catalog  # noqa: E402  (scripts/catalog.py)

MO = LOCALE_DIR / "pl" / "LC_MESSAGES" / "szwadron.mo"


def test_every_message_has_a_polish_translation() -> None:
    """Every msgid extracted from the source (as ``pybabel extract`` does) has a non-fuzzy,
    non-empty Polish msgstr, every plural form filled."""
    assert catalog.missing("pl") == []


def test_the_committed_mo_is_the_compiled_po() -> None:
    committed = gettext.GNUTranslations(io.BytesIO(MO.read_bytes()))
    fresh = gettext.GNUTranslations(io.BytesIO(catalog.compiled("pl")))
    assert committed._catalog == fresh._catalog  # type: ignore[attr-defined]


def test_the_catalog_has_many_messages() -> None:
    assert len(catalog.read_catalog("pl")) > 100


def _brief_plural(n: int) -> int:
    return 0 if n == 1 else 1 if 2 <= n % 10 <= 4 and (n % 100 < 10 or n % 100 >= 20) else 2


def test_polish_plural_forms() -> None:
    """1 figurka, 2 figurki, 5 figurek, 12 figurek, 22 figurki, 25 figurek (the rulebook's word
    for a figure is *figurka*, 1.2, 4.7); the catalog's Plural-Forms is the usual Polish rule for
    every n (nplurals=3)."""
    translation = gettext.GNUTranslations(io.BytesIO(MO.read_bytes()))
    for n in range(0, 1001):
        assert translation.plural(n) == _brief_plural(n), n  # type: ignore[attr-defined]
    with language("pl"):
        said = {
            n: ngettext("{n} figure", "{n} figures", n).format(n=n) for n in (1, 2, 4, 5, 12, 21, 22, 25, 0)
        }
        units = [ngettext("{n} unit", "{n} units", n).format(n=n) for n in (1, 3, 14, 102)]
    assert said == {
        1: "1 figurka",
        2: "2 figurki",
        4: "4 figurki",
        5: "5 figurek",
        12: "12 figurek",
        21: "21 figurek",
        22: "22 figurki",
        25: "25 figurek",
        0: "0 figurek",
    }
    assert units == ["1 oddział", "3 oddziały", "14 oddziałów", "102 oddziały"]
    assert ngettext("{n} figure", "{n} figures", 2).format(n=2) == "2 figures"


def test_language_from_the_environment() -> None:
    assert language_from_environment({"LANG": "pl_PL.UTF-8"}) == "pl"
    assert language_from_environment({"LC_ALL": "pl_PL.utf8"}) == "pl"
    assert language_from_environment({"LC_MESSAGES": "pl", "LANG": "en_GB.UTF-8"}) == "pl"
    assert language_from_environment({"LC_ALL": "en_US.UTF-8", "LANG": "pl_PL.UTF-8"}) == "en"
    assert language_from_environment({"LANG": "de_DE.UTF-8"}) == "en"
    assert language_from_environment({"LANG": "C"}) == "en"
    assert language_from_environment({}) == "en"


def test_lang_option_before_or_after_the_command() -> None:
    assert requested_language(["--lang", "pl", "check", "x.toml"]) == "pl"
    assert requested_language(["check", "x.toml", "--lang=pl"]) == "pl"
    assert requested_language(["odds", "morale", "--lang", "pl", "--lang", "en"]) == "en"


def test_the_environment_chooses_when_no_lang_is_given(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LC_ALL", "pl_PL.UTF-8")
    assert main(["measure", "scenarios/example.toml", "fr-battery", "au-battery"]) == 0
    assert "między" in capsys.readouterr().out
    assert main(["measure", "scenarios/example.toml", "fr-battery", "au-battery", "--lang", "en"]) == 0
    assert "between" in capsys.readouterr().out
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    assert main(["measure", "scenarios/example.toml", "fr-battery", "au-battery"]) == 0
    assert "between" in capsys.readouterr().out
    assert current_language() == "en"


@pytest.mark.parametrize("where", ["before", "after"])
def test_every_command_takes_lang(where: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--lang`` is an option of the top-level parser and of every (sub-)command."""
    from szwadron.cli import build_parser

    parser = build_parser()

    def walk(p: object) -> list[object]:
        import argparse

        found = [p]
        for action in p._actions:  # type: ignore[attr-defined]
            if isinstance(action, argparse._SubParsersAction):
                for child in set(action.choices.values()):
                    found += walk(child)
        return found

    parsers = walk(parser)
    assert len(parsers) > 18
    for p in parsers:
        assert "--lang" in p._option_string_actions, p.prog  # type: ignore[attr-defined]
    args = ["--lang", "pl", "remainder"] if where == "before" else ["remainder", "--lang", "pl"]
    assert main(args) == 0
    assert "Rzut na resztę z dzielenia (1.5.1, PD-5) kością K6" in capsys.readouterr().out


def test_an_unknown_language_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["remainder", "--lang", "fr"])
    assert exit_.value.code == 2
    assert "--lang" in capsys.readouterr().err


def test_json_keys_and_values_stay_english_its_messages_speak_polish(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A refusal's ``message`` is Polish under ``--lang pl``; keys, rule numbers and the
    enumerated values are the same as in English."""
    base = ["targets", "scenarios/example.toml", "--shooter", "fr-battery", "--json"]
    assert main(base) == 0
    english = json.loads(capsys.readouterr().out)
    assert main([*base, "--lang", "pl"]) == 0
    polish = json.loads(capsys.readouterr().out)

    def skeleton(doc: object) -> object:
        if isinstance(doc, dict):
            return {k: ("<message>" if k == "message" else skeleton(v)) for k, v in doc.items()}
        if isinstance(doc, list):
            return [skeleton(v) for v in doc]
        return doc

    assert skeleton(english) == skeleton(polish)
    messages_en = [m for m in _messages(english)]
    messages_pl = [m for m in _messages(polish)]
    assert messages_en and len(messages_en) == len(messages_pl)
    assert all(a != b for a, b in zip(messages_en, messages_pl, strict=True))
    assert any("zasięg" in m for m in messages_pl)


def _messages(doc: object) -> list[str]:
    if isinstance(doc, dict):
        out = [doc["message"]] if isinstance(doc.get("message"), str) else []
        return out + [m for k, v in doc.items() if k != "message" for m in _messages(v)]
    if isinstance(doc, list):
        return [m for v in doc for m in _messages(v)]
    return []


def test_polish_help_and_argparse_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "pl", "--help"])
    out = capsys.readouterr().out
    assert "użycie:" in out and "opcje" in out
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "usage:" in capsys.readouterr().out
    assert _("options") == "options"


def test_a_polish_picture_has_polish_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table, a melee and a fire drawn with --lang pl: titles, keys, labels and axis names in the
    book's Polish, with its letters (ą, ę, ł, ó, ś, ź, ż); the same pictures in English keep
    their English words."""
    from matplotlib.text import Text

    from szwadron.plots import _io

    seen: list[str] = []
    translate = _io.translate_figure

    def spy(fig: object) -> None:
        translate(fig)  # type: ignore[arg-type]
        seen.extend(t.get_text() for t in fig.findobj(Text))  # type: ignore[attr-defined]

    monkeypatch.setattr(_io, "translate_figure", spy)
    table = ["plot", "scenarios/example.toml", "-o", str(tmp_path / "table.png")]
    melee = [
        "melee",
        "scenarios/example.toml",
        "--attacker",
        "fr-cuirassiers",
        "--defender",
        "au-chevaulegers",
        "--plot",
        str(tmp_path / "melee.png"),
    ]
    fire = ["fire", "scenarios/example.toml", "--shooter", "fr-battery", "--target", "au-battery"]
    assert main([*table, "--lang", "pl"]) == 0
    assert main([*melee, "--lang", "pl"]) == 0
    assert main([*fire, "--plot", str(tmp_path / "fire.png"), "--lang", "pl"]) == 0
    polish = "\n".join(seen)
    for words in (
        "Legenda",
        "krawędź strony A",
        "wzgórze, poziom 2",
        "oddział w panice (6.1)",
        "prawdopodobieństwo, %",
    ):
        assert words in polish, words
    assert set("ąęłóśźż") <= set(polish)
    assert "Key" not in seen and "probability, %" not in seen
    seen.clear()
    assert main(table) == 0 and main(melee) == 0
    assert "Key" in seen and "probability, %" in seen and "Legenda" not in seen


def _js_keys(block: str) -> set[str]:
    """The keys of a JavaScript object literal's text (string values skipped)."""
    keys = set()
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"\s*:|"(?:[^"\\]|\\.)*"|`[^`]*`|([A-Za-z_][\w]*)\s*:', block):
        if m.group(1) is not None:
            keys.add(m.group(1))
        elif m.group(2) is not None:
            keys.add(m.group(2))
    return keys


def test_the_page_speaks_the_servers_language(tmp_path: Path) -> None:
    """``szwadron serve --lang pl``: the page is ``<html lang="pl">``, which gives app.js its Polish
    strings (L_PL has every key of L), and the answers' messages come in Polish."""
    import shutil
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from szwadron.web.app import create_app

    shutil.copy(REPO / "scenarios" / "example.toml", tmp_path / "example.toml")
    client = TestClient(create_app(tmp_path / "example.toml"))
    assert '<html lang="en">' in client.get("/").text
    with language("pl"):
        assert '<html lang="pl">' in client.get("/").text
        targets = client.post("/api/targets", json={"shooter": "fr-battery"}).json()
    assert any("zasięgiem" in m for m in _messages(targets))
    js = (REPO / "szwadron" / "web" / "static" / "app.js").read_text(encoding="utf-8")
    english = re.search(r"\nconst L_EN = \{\n(.*?)\n\};", js, re.S)
    polish = re.search(r"\nconst L_PL = \{\n(.*?)\n\};", js, re.S)
    assert english and polish
    assert _js_keys(english.group(1)) == _js_keys(polish.group(1))
    assert len(_js_keys(polish.group(1))) > 100


def test_no_message_is_hidden_inside_an_f_string() -> None:
    """``f"{_('...')}"`` is invisible to the extraction (Babel does not look inside f-strings), so
    its message would never reach the catalog: every literal message is outside f-strings."""
    import tokenize

    hidden = []
    for path in sorted((REPO / "szwadron").rglob("*.py")):
        with path.open("rb") as f:
            for token in tokenize.tokenize(f.readline):
                if token.type == tokenize.STRING and re.match(r"[rRbB]*[fF]", token.string):
                    if re.search(r"\{[^}]*\b(_|gettext|ngettext|pgettext)\(\s*[\"']", token.string):
                        hidden.append(f"{path.relative_to(REPO)}:{token.start[0]}")
    assert hidden == []


def test_the_page_asks_in_its_own_language(tmp_path: Path) -> None:
    """Issue 18, 19 — the page sends its language (``accept-language``) with every request, and
    the server answers that request in it, whatever its own ``--lang``."""
    import shutil
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from szwadron.web.app import create_app

    shutil.copy(REPO / "scenarios" / "example.toml", tmp_path / "example.toml")
    client = TestClient(create_app(tmp_path / "example.toml"))
    asked = {"shooter": "fr-battery"}
    polish = client.post("/api/targets", json=asked, headers={"accept-language": "pl"}).json()
    english = client.post("/api/targets", json=asked, headers={"accept-language": "en"}).json()
    assert any("zasięgiem" in m for m in _messages(polish))
    assert not any("zasięgiem" in m for m in _messages(english))
    with language("pl"):  # a server started in Polish still answers an English page in English
        again = client.post("/api/targets", json=asked, headers={"accept-language": "en"}).json()
    assert _messages(again) == _messages(english)


# --- the second pass (issue 19 after issues 15, 16, 17): the new rules, refusals and notes -------

CASES = REPO / "tests" / "cases"


def _case_file(case: str, tmp_path: Path) -> str:
    """A known-answer case (``tests/cases/...``) without its ``[check]``/``[expected]`` tables,
    as a scenario file."""
    text = (CASES / case).read_text(encoding="utf-8")
    path = tmp_path / Path(case).name
    path.write_text(re.split(r"\n\[(?:check|expected)\]", text)[0] + "\n", encoding="utf-8")
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _no_english(text: str, title: str = "") -> None:
    """No English glossary term in ``text`` (data, such as the scenario's ``title``, aside)."""
    from test_i18n_readme import english_words

    words = re.sub(r"(?m)^szwadron [a-z ]+: ", "", text)  # the command's name frames a refusal
    words = words.replace(title, " ") if title else words
    assert english_words(words) == [], text


def test_a_combined_melee_speaks_polish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """5.10 (łączona walka wręcz): the same numbers, in the book's words; its refusals too."""
    f = _case_file("melee_combined/5_10_two_attackers_one_defender.toml", tmp_path)
    argv = ["melee", f, "--attacker", "a", "b", "--defender", "d"]
    code, english, _err = _run(capsys, *argv)
    assert code == 0 and "Combined melee (5.10): a, b attack d" in english
    code, polish, _err = _run(capsys, *argv, "--lang", "pl")
    assert code == 0
    assert polish.startswith("Łączona walka wręcz (5.10): a, b atakują d")
    assert "Kości (5.10.3: sumowane przeciw każdemu oddziałowi" in polish
    assert "kolejność zdejmowania: d/0, d/1" in polish
    assert "broniący się d (przeciw a, b)" in polish
    assert "zniszczony 33.3%, związany 25.0%, panika 22.2%, odrzucony 11.1%, stoi 8.3%" in polish
    # the chances are the answer's, whatever the language
    assert re.findall(r"\d+\.\d+%", polish) == re.findall(r"\d+\.\d+%", english)
    _no_english(polish)
    code, _out, err = _run(capsys, "melee", f, "--attacker", "a", "a", "--defender", "d", "--lang", "pl")
    assert code == 2 and "a podano dwa razy: podaj każdy oddział raz" in err
    _no_english(err)
    argv = [
        "melee",
        f,
        "--attacker",
        "a",
        "--defender",
        "d",
        "--continuing",
        "--declare-defence",
        "--lang",
        "pl",
    ]
    code, _out, err = _run(capsys, *argv)
    assert code == 1 and "brak walki wręcz: a może zadeklarować obronę tylko wtedy" in err
    _no_english(err)


def test_a_repulse_speaks_polish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """6.5 (odrzucenie): the full move straight back, and the blocked one that panics (6.5.5)."""
    f = _case_file("repulse/6_5_straight_back.toml", tmp_path)
    code, out, _err = _run(capsys, "move", f, "--unit", "a", "--repulse", "e", "--lang", "pl")
    assert code == 0
    assert out.startswith(
        "a: odrzucenie od e — 12.00 cm w kierunku (0.000, -1.000); kończy w normalnym stanie morale (6.5.3)"
    )
    _no_english(out)
    f = _case_file("repulse/6_5_5_blocked_by_terrain.toml", tmp_path)
    code, out, _err = _run(capsys, "move", f, "--unit", "a", "--repulse", "e", "--lang", "pl")
    assert code == 1
    assert "a: odrzucenie od e — ZABLOKOWANE" in out and "(6.5.5): oddział wpada w panikę" in out
    _no_english(out)
    code, _out, err = _run(capsys, "move", f, "--unit", "a", "--repulse", "a", "--lang", "pl")
    assert code == 2 and "--repulse: a jest po tej samej stronie co a" in err


def test_a_flight_in_the_morale_phase_speaks_polish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """6.6 (ucieczka) boxed in, with its surrender (6.6.12); 6.7.5 a pursuit meeting a second unit."""
    f = _case_file("morale/6_6_12_surrender_boxed_in.toml", tmp_path)
    code, out, _err = _run(capsys, "morale", f, "--side", "A", "--lang", "pl")
    assert code == 0
    assert "ucieka 2K6 × 2 cm prosto w stronę swojej krawędzi stołu" in out
    assert "zablokowane: fleeing/0 przez enemy/0 po 1.00 cm" in out
    assert "poddanie się (6.6.12): musi się poddać, jeśli ucieka" in out
    _no_english(out, title="6.6.12 surrender")
    f = _case_file("morale/6_7_5_pursuit_strikes_a_second_unit.toml", tmp_path)
    code, out, _err = _run(capsys, "morale", f, "--side", "A", "--lang", "pl")
    assert code == 0
    assert (
        "na drodze: second, napotkany po 12.00 cm przez pursuer/0; może zostać zaatakowany: 32.4% (6.7.5)"
        in out
    )
    _no_english(out, title="6.7.5 pursuit strikes a second unit")
    with language("pl"):  # the flight's blockers that are words, not ids, are shown in Polish
        assert _("an enemy control zone") == "wroga strefa kontroli"
        assert _("no way to the edge") == "brak drogi do krawędzi stołu"


def test_a_malformed_file_is_refused_in_polish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16's bad-input messages: the field path stays as the file writes it, the words are
    Polish; exit 2 in both languages."""
    bad = CASES / "bad_input"
    code, _out, err = _run(capsys, "check", str(bad / "wrong_type.toml"), "--lang", "pl")
    assert code == 2
    assert "units[0] (identyfikator 'u1').bases[0].x: oczekiwano liczby, podano tekst 'ten'" in err
    assert "(liczby pisz bez cudzysłowu)" in err
    code, _out, err = _run(capsys, "check", str(bad / "wrong_type.toml"))
    assert (
        code == 2
        and "bases[0].x: expected a number, got the text 'ten' (write numbers without quotes)" in err
    )
    code, _out, err = _run(capsys, "check", str(bad / "malformed_toml.toml"), "--lang", "pl")
    assert code == 2 and "błąd:" in err and "błędny TOML:" in err
    code, _out, err = _run(capsys, "check", str(bad / "strength_below_bases.toml"), "--lang", "pl")
    assert code == 2 and ".initial_strength: 1 to mniej niż liczba podstawek na stole (2)" in err
    _no_english(err)
    code, _out, err = _run(capsys, "check", str(tmp_path), "--lang", "pl")
    assert code == 2 and "to katalog, oczekiwano pliku" in err
    empty = tmp_path / "empty.toml"
    empty.write_text("# nothing\n", encoding="utf-8")
    code, _out, err = _run(capsys, "check", str(empty), "--lang", "pl")
    assert code == 2 and "plik nie zawiera danych (same komentarze?)" in err
    argv = [
        "plot",
        str(REPO / "scenarios" / "example.toml"),
        "-o",
        str(tmp_path / "t.png"),
        "--region",
        "1,2,3",
    ]
    code, _out, err = _run(capsys, *argv, "--lang", "pl")
    assert code == 2 and "musi mieć postać x0,y0,x1,y1 w cm (cztery liczby), podano '1,2,3'" in err
    assert not (tmp_path / "t.png").exists()


def test_an_odds_table_folds_its_rows_in_polish(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16's folded rows (each below 0.01 %) are counted with the Polish plural forms."""
    argv = ["odds", "fire", "--fire", "200@3", "--wounds", "1"]
    code, english, _err = _run(capsys, *argv)
    assert code == 0 and "(75 rows each below 0.01%: their sum)" in english
    code, polish, _err = _run(capsys, *argv, "--lang", "pl")
    assert code == 0 and "(75 wierszy, każdy poniżej 0.01%: ich suma)" in polish
    _no_english(polish)
    with language("pl"):
        rows = [
            ngettext(
                "({n} row each below {p}%: their sum)", "({n} rows each below {p}%: their sum)", n
            ).format(n=n, p="0.01")
            for n in (2, 5, 22)
        ]
    assert rows == [
        "(2 wiersze, każdy poniżej 0.01%: ich suma)",
        "(5 wierszy, każdy poniżej 0.01%: ich suma)",
        "(22 wiersze, każdy poniżej 0.01%: ich suma)",
    ]


def test_a_game_played_in_polish_writes_the_same_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 17's scripted game played with ``--lang pl``: the game log is the known-answer log
    byte for byte (the log is data, not text), and the ``--apply`` notes are Polish."""
    import shutil

    from test_game import CASES as GAME
    from test_game import INPUTS, SCRIPT

    for name in INPUTS:
        shutil.copy(GAME / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    said = []
    for argv, _what in SCRIPT:
        assert main([*argv, "--log", "game.jsonl", "--lang", "pl"]) == 0
        said.append(capsys.readouterr().out)
    assert (tmp_path / "game.jsonl").read_bytes() == (GAME / "game.jsonl").read_bytes()
    text = "\n".join(said)
    assert "fr-line-1 jest odrzucony: jego następnym ruchem jest wycofanie się poza zasięg au-battery" in text
    assert "au-battery wpada w panikę: jego następnym ruchem jest ucieczka (4.8.3, 6.6)" in text
    assert "obie strony wytrzymały: dosuwanie jednostek (5.6, move --push-up) — atakujący 1 (" in text
    assert "au-cuirassiers ucieka 28 cm i opuszcza planszę (6.6)" in text
    assert "au-battery reorganizuje się (6.8)" in text
    code, _out, err = _run(
        capsys, "fire", "p06.toml", "--shooter", "au-battery", "--target", "fr-line-1", "--apply", "-o", "x.toml",
        "--dice", "1,1,2,4", "--remainder-dice", "3", "--morale-dice", "5,2", "--lang", "pl",
    )  # fmt: skip
    assert code == 2 and "salwa rzuca 3 kośćmi (3 na ≤2)" in err
    assert not (tmp_path / "x.toml").exists()


# --- the third pass: rosters, points, balance (szwadron.armies, cli/points.py) --------------------

TESTLAND = CASES / "armylists" / "testland.toml"


def _testland_rules() -> list[str]:
    """The constraints' own words in the test list (data, as written in its TOML: not translated)."""
    import tomllib

    doc = tomllib.loads(TESTLAND.read_text(encoding="utf-8"))
    return [doc["name"], *(c["rule"] for c in doc.get("constraints", []) if "rule" in c)]


def _no_english_but(text: str, data: list[str]) -> None:
    for words in data:
        text = text.replace(words, " ")
    _no_english(text)


def test_points_of_a_roster_speak_polish(capsys: pytest.CaptureFixture[str]) -> None:
    """I.2 (rozpiska, wartości punktowe): the README's `points france --roster corps-1000` in Polish,
    the same numbers as in English."""
    code, english, _err = _run(capsys, "points", "france", "--roster", "corps-1000")
    sizes = re.search(r"roster 'corps-1000' of army list 'france': (\d+) units, (\d+) figures", english)
    assert code == 0 and sizes is not None
    units, figures = (int(n) for n in sizes.groups())
    code, out, err = _run(capsys, "points", "france", "--roster", "corps-1000", "--lang", "pl")
    assert code == 0 and err == ""
    with language("pl"):  # the Polish plural forms are the catalogue's
        unit_word = ngettext("{n} unit", "{n} units", units).format(n=units)
        figure_word = ngettext("{n} figure", "{n} figures", figures).format(n=figures)
    assert f"rozpiska 'corps-1000' z listy armii 'france': {unit_word}, {figure_word}" in out
    total = re.search(r"; ([0-9.]+) points \(limit 1000\)", english)
    assert total is not None and f"; {total.group(1)} pkt (limit 1000)" in out  # the same number
    _no_english(out)


def test_a_roster_breaking_its_constraints_speaks_polish(capsys: pytest.CaptureFixture[str]) -> None:
    """Every breach of tests/cases/rosters/several_broken.toml (points limit, a share of points, a
    minimum of units, a maximum of figures, 7.2 limbers) in the book's words; then a malformed roster
    (1.1: cavalry in an infantry unit) refused in Polish with exit 2."""
    roster = str(CASES / "rosters" / "several_broken.toml")
    code, out, _err = _run(capsys, "points", str(TESTLAND), "--roster", roster, "--lang", "pl")
    assert code == 1  # the roster breaks its list: "no"
    for words in (
        "złamane ograniczenia: 5",
        "rozpiska 'everything-wrong' kosztuje najwyżej 100 pkt): 500 pkt, ponad limit 100 o 400",
        "52.0% punktów; dozwolone najwyżej 25.0%",
        "1 oddział; potrzeba co najmniej 2",
        "10 figurek; dozwolone najwyżej 8",
        "units[2] ('gun'): 2 figurki dział i 1 jaszcz w każdym oddziale; potrzeba 2",
        "7.2: działo, które porusza się z jaszczami",
    ):
        assert words in out, (words, out)
    _no_english_but(out, _testland_rules())
    code, english, _err = _run(capsys, "points", str(TESTLAND), "--roster", roster, "--json")
    code, polish, _err = _run(capsys, "points", str(TESTLAND), "--roster", roster, "--json", "--lang", "pl")
    en, pl = json.loads(english)["roster"], json.loads(polish)["roster"]
    assert {k: v for k, v in en.items() if k != "broken"} == {k: v for k, v in pl.items() if k != "broken"}
    assert [b.split(" ")[0] for b in en["broken"]] == [b.split(" ")[0] for b in pl["broken"]]
    bad = str(CASES / "bad_rosters" / "cavalry_in_infantry_unit.toml")
    code, out, err = _run(capsys, "points", str(TESTLAND), "--roster", bad, "--lang", "pl")
    assert code == 2 and out == "" and "nie mogą dołączyć do oddziału" in err and "(1.1)" in err
    _no_english(err)


def test_balance_speaks_polish(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """balance in Polish: a roster breaking the list's battalion size (its rule is the list's data),
    the predicted chances and the roster edits that even the points."""
    roster = tmp_path / "big.toml"
    roster.write_text(
        'army = "russia"\nid = "big"\npoints_limit = 1000\nunits = [\n'
        '  { profile = "line_infantry", figures = 24, count = 3 },\n'
        '  { profile = "hussars", figures = 6, count = 2 },\n]\n',
        encoding="utf-8",
    )
    argv = ["balance", str(roster), "russia:corps-1000", "--battles", "0"]  # the points alone
    code, english, _err = _run(capsys, *argv)
    assert code == 0 and "to even them" in english and "B: remove 2 units of jagers" in english
    code, out, _err = _run(capsys, *argv, "--lang", "pl")
    assert code == 0
    assert "A (russia:big) łamie battalion-size (" in out
    assert "units[0] ('line_infantry'): 24 figurki w każdym oddziale; dozwolone najwyżej 12" in out
    assert "by je wyrównać" in out and "B: usuń 2 oddziały jagers (units[1], po 7 figurek;" in out
    import tomllib

    russia = tomllib.loads((REPO / "armylists" / "russia.toml").read_text(encoding="utf-8"))
    _no_english_but(out, [c["rule"] for c in russia.get("constraints", []) if "rule" in c])


def test_a_tiny_calibration_and_validation_speak_polish(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """points calibrate (a dry run, then written to a copy) and points validate, as small as
    tests/test_cli_points.py keeps them: the reports and the progress on stderr in Polish."""
    lists = tmp_path / "lists"
    lists.mkdir()
    (lists / "testland.toml").write_bytes(TESTLAND.read_bytes())
    model = tmp_path / "model.toml"
    small = ["--lists", str(lists), "--model", str(model), "--workers", "1", "--lang", "pl"]
    code, out, err = _run(
        capsys, "points", "calibrate", *small, "--duels", "6", "--rounds", "1", "--battles", "2"
    )
    assert code == 0 and model.is_file()
    assert "skalibrowano w" in out and "wykładniki: atak" in out and "zapisano współczynniki" in out
    assert "runda kalibracji 1/1: 0/" in err and "pojedynk" in err
    _no_english(out)
    _no_english(err)
    code, out, err = _run(capsys, "points", "validate", *small, "--duels", "2")
    assert code == 0
    assert "każdy z każdym przy równych punktach" in out and "według klas" in out
    assert "piechota v kawaleria" in out and "najdalej od równowagi:" in out
    assert "armia przeciw armii: żadne dwie przykładowe rozpiski" in out
    assert "sprawdzanie: " in err
    _no_english(out)
    _no_english(err)
    code, out, err = _run(capsys, "points", "validate", *small, "--duels", "0")
    assert code == 2 and "--duels musi wynosić co najmniej 1, podano 0" in err
