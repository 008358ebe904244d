"""Every README example in Polish (issue 19): run as printed with ``--lang pl``, it succeeds and
prints no English term of docs/glossary.md (where the book's Polish term differs); a ``--json``
example keeps its keys and values and carries Polish ``message`` texts."""

from __future__ import annotations

import json
import re
import subprocess
import tomllib
from pathlib import Path

import pytest
from test_readme import EXAMPLES, _shell

REPO = Path(__file__).resolve().parent.parent


def glossary() -> list[tuple[str, str, str]]:
    """(English, Polish, rule) rows of docs/glossary.md."""
    rows = []
    for line in (REPO / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("English", "") and not set(cells[0]) <= {"-"}:
            rows.append((cells[0], cells[1], cells[2]))
    return rows


def english_terms() -> list[str]:
    """The glossary's English terms whose Polish is another word (``morale``, ``test`` are both)."""
    return [en for en, pl, _rule in glossary() if en.lower() not in pl.lower()]


def _data_names() -> set[str]:
    """Names that are data, not text: ids and names of the bundled army lists and scenarios
    (profile ids such as ``hussars``, ammunition such as ``roundshot``, the battle's title)."""
    names: set[str] = set()

    def walk(doc: object) -> None:
        if isinstance(doc, dict):
            for key, value in doc.items():
                if key in ("id", "name", "profile", "army", "scenario", "title") and isinstance(value, str):
                    names.add(value)
                walk(value)
        elif isinstance(doc, list):
            for value in doc:
                walk(value)

    for path in [*(REPO / "armylists").glob("*.toml"), *(REPO / "scenarios").glob("*.toml")]:
        walk(tomllib.loads(path.read_text(encoding="utf-8")))
    return names


DATA = sorted(_data_names(), key=len, reverse=True)


def masked(text: str) -> str:
    """The text without data: quoted titles, ids (``fr-line-1/2``, ``line_infantry``), options,
    module names."""
    text = re.sub(r"'[^'\n]*'", " ", text)
    for name in DATA:
        text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", " ", text)
    text = re.sub(r"--[\w-]+", " ", text)
    text = re.sub(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+", " ", text)  # a module: szwadron.armies.points
    return re.sub(r"[\w.]*[-_/][\w./-]*", " ", text)


def english_words(text: str) -> list[str]:
    found = []
    clean = masked(text)
    for term in english_terms():
        if re.search(rf"(?<![\w-]){re.escape(term)}(?![\w-])", clean, flags=re.IGNORECASE):
            found.append(term)
    return found


def test_the_glossary_names_a_rule_for_every_term() -> None:
    rows = glossary()
    assert len(rows) >= 60
    for en, pl, rule in rows:
        assert pl and re.search(r"\d", rule), (en, pl, rule)
    assert ("control zone", "strefa kontroli", "1.4.1") in rows
    # the detector finds English words and ignores data
    assert english_words("fr-hussars: move — LEGAL") == ["move", "legal"]
    assert (
        english_words("fr-hussars/0 w terenie: wzgórze hill-1, profil hussars, 'Example: the fenced field'")
        == []
    )


COMMANDS = sorted({command for command, _ in EXAMPLES})


@pytest.fixture(scope="module")
def polish_runs() -> dict[str, subprocess.CompletedProcess[str]]:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(COMMANDS, pool.map(lambda c: _shell(c + " --lang pl"), COMMANDS), strict=True))


def _messages(doc: object) -> list[str]:
    if isinstance(doc, dict):
        out = [doc["message"]] if isinstance(doc.get("message"), str) else []
        return out + [m for k, v in doc.items() if k != "message" for m in _messages(v)]
    if isinstance(doc, list):
        return [m for v in doc for m in _messages(v)]
    return []


@pytest.mark.parametrize("command", COMMANDS)
def test_readme_example_in_polish(
    command: str, polish_runs: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    done = polish_runs[command]
    assert done.returncode == 0, done.stderr
    if "--json" in command:
        english = _shell(command)
        assert english.returncode == 0
        en_doc, pl_doc = json.loads(english.stdout), json.loads(done.stdout)
        assert list(en_doc) == list(pl_doc)
        for message in _messages(pl_doc):
            assert english_words(message) == [], message
        return
    assert english_words(done.stdout) == [], done.stdout
    # and it is Polish: at least one of the book's words
    assert re.search(r"[ąćęłńóśźż]", done.stdout), done.stdout


def _polish_readme() -> str:
    return (REPO / "README.pl.md").read_text(encoding="utf-8")


def test_the_polish_readme_has_the_two_commands() -> None:
    """README.pl.md gives the README's two fresh-machine commands, the first asking for Polish."""
    from test_readme import _readme_commands

    block = re.search(r"```sh\n(.*?)```", _polish_readme(), re.S)
    assert block
    run, test = [line.strip() for line in block.group(1).splitlines() if line.strip()]
    english_run, english_test = _readme_commands()
    assert run == english_run + " --lang pl"
    assert test == english_test


def _polish_examples() -> list[tuple[str, list[str]]]:
    examples: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```console\n(.*?)```", _polish_readme(), re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                examples.append((line[2:].strip(), []))
            elif examples and line.strip():
                examples[-1][1].append(line)
    return examples


POLISH_EXAMPLES = _polish_examples()


def test_the_polish_readme_shows_every_kind_of_answer() -> None:
    commands = [c for c, _ in POLISH_EXAMPLES]
    assert len(commands) >= 12 and all(c.endswith(" --lang pl") for c in commands)
    for name in (
        "check",
        "measure",
        "targets",
        "fire",
        "move",
        "melee",
        "morale",
        "odds",
        "remainder",
        "points",
        "balance",
    ):
        assert any(c.split()[1] == name for c in commands), name


@pytest.mark.parametrize(("command", "shown"), POLISH_EXAMPLES, ids=[c for c, _ in POLISH_EXAMPLES])
def test_polish_readme_example_runs_as_printed(command: str, shown: list[str]) -> None:
    done = _shell(command)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[: len(shown)] == shown, done.stdout
    assert english_words(done.stdout) == [], done.stdout
