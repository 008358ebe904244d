"""Every ``--json`` document carries ``"schema_version"`` and validates against its JSON Schema in
``schemas/output/`` (issue 20; generated from :mod:`szwadron.documents`).

The README examples' documents are validated as recorded in ``tests/cases/readme_json/`` (which
``test_readme_json_snapshot.py`` holds byte-identical to what the commands print); a few more
commands, run here, cover the other documents.
"""

from __future__ import annotations

import copy
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import szwadron
from szwadron.cli import main
from szwadron.documents import DOCUMENT_MODELS, document_schema

REPO = Path(__file__).resolve().parent.parent
OUTPUT_SCHEMAS = REPO / "schemas" / "output"
SNAPSHOTS = sorted((REPO / "tests" / "cases" / "readme_json").glob("*.out"))
SCENARIO = "scenarios/example.toml"


def _schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((OUTPUT_SCHEMAS / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def _validate(document: Any, schema_name: str) -> None:
    jsonschema.Draft202012Validator(_schema(schema_name)).validate(document)


def _snapshot(path: Path) -> tuple[list[str], Any]:
    head, body = path.read_text(encoding="utf-8").split("\n", 1)
    return shlex.split(head.removeprefix("// szwadron ")), json.loads(body)


def test_every_document_has_a_committed_schema() -> None:
    assert {p.name for p in OUTPUT_SCHEMAS.glob("*.schema.json")} == set(DOCUMENT_MODELS)


@pytest.mark.parametrize("name", sorted(DOCUMENT_MODELS))
def test_schema_pins_the_schema_version(name: str) -> None:
    schema = _schema(name)
    assert schema["properties"]["schema_version"]["const"] == szwadron.SCHEMA_VERSION
    assert "schema_version" in schema["required"]


@pytest.mark.parametrize("snapshot", SNAPSHOTS, ids=lambda p: p.stem)
def test_readme_example_document_validates(snapshot: Path) -> None:
    words, document = _snapshot(snapshot)
    assert next(iter(document)) == "schema_version"  # the first key
    _validate(document, document_schema(words))


def test_a_schema_refuses_an_unknown_key_and_a_missing_one() -> None:
    """The schemas are not vacuous: a key the schema does not name, at the top or inside, or a
    missing one, fails."""
    words, document = _snapshot(next(p for p in SNAPSHOTS if _snapshot(p)[0][0] == "fire"))
    name = document_schema(words)
    for change in (
        lambda d: d.update(bogus=1),
        lambda d: d["shooters"][0].update(bogus=1),
        lambda d: d.pop("legal"),
        lambda d: d.update(schema_version=2),
        lambda d: d["morale"].update(panic="high"),
    ):
        bad = copy.deepcopy(document)
        change(bad)
        with pytest.raises(jsonschema.ValidationError):
            _validate(bad, name)


MORE_COMMANDS = [
    ["remainder", "--die", "d10", "--max-wounds", "4", "--json"],
    ["reach", SCENARIO, "--unit", "fr-hussars", "--target", "au-grenzer", "--json"],
    ["fire", SCENARIO, "--shooter", "fr-line-1", "--target", "au-battery", "--json"],
    ["odds", "morale", "--morale", "4", "--strength", "6", "--initial", "12", "--json"],
    ["odds", "morale", "--morale", "4", "--strength", "6", "--initial", "12", "--roll", "--seed", "3", "--json"],
    ["odds", "fire", "--fire", "6@3", "--wounds", "2", "--morale", "4", "--strength", "8", "--initial", "8", "--json"],
    [
        "odds", "fire", "--fire", "6@3", "--wounds", "2", "--morale", "4", "--strength", "8",
        "--initial", "8", "--roll", "--seed", "5", "--json",
    ],
    [
        "odds", "melee", "--attacker", "figures=6 SW=2 UW=4 W=2 M=4", "--defender",
        "figures=8 SW=1 UW=3 W=2 M=3", "--panicking-defender", "--roll", "--seed", "2", "--json",
    ],
    ["points", "austria", "--json"],
]  # fmt: skip


@pytest.mark.parametrize("words", MORE_COMMANDS, ids=lambda w: " ".join(w[:2]))
def test_more_documents_validate(
    words: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    code = main(words)
    out = capsys.readouterr().out
    assert code in (0, 1), out
    document = json.loads(out)
    assert next(iter(document)) == "schema_version"
    _validate(document, document_schema(words))


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))


def test_game_documents_validate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """place, turn, an action applied (--apply), replay and undo (issue 17's commands)."""
    monkeypatch.chdir(REPO)
    start = tmp_path / "start.toml"
    start.write_bytes((REPO / SCENARIO).read_bytes())
    after, log = tmp_path / "after.toml", tmp_path / "game.jsonl"
    fire = ["fire", str(start), "--shooter", "fr-battery", "--target", "au-battery"]
    runs = [
        ["place", str(start), "-o", str(tmp_path / "placed.toml"), "--json"],
        ["turn", str(start), "--json"],
        [*fire, "--apply", "--roll", "--seed", "3", "-o", str(after), "--log", str(log), "--json"],
        ["replay", str(log), "-o", str(tmp_path / "replayed.toml"), "--json"],
        ["undo", str(log), "-o", str(tmp_path / "before.toml"), "--json"],
    ]
    for words in runs:
        code = main(words)
        out = capsys.readouterr().out
        assert code == 0, words
        document = json.loads(out)
        assert next(iter(document)) == "schema_version"
        _validate(document, document_schema(words))
