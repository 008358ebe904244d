"""The committed JSON Schemas are fresh: generated from the models and committed
(docs/decisions.md "Files")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from szwadron.schemas import SCHEMA_MODELS, all_schemas, json_schema, render

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@pytest.mark.parametrize("file_name", sorted(all_schemas()))
def test_committed_schema_is_fresh(file_name: str) -> None:
    """The input files' schemas and (under output/) the --json documents' (issue 20)."""
    committed = (SCHEMAS / file_name).read_text(encoding="utf-8")
    assert committed == render(all_schemas()[file_name]), (
        f"schemas/{file_name} is stale: run `python -m szwadron.schemas`"
    )


def test_schema_lists_rulebook_codes() -> None:
    """1.1 — the rulebook's codes are accepted, so the schema names them."""
    profile = json_schema(SCHEMA_MODELS["armylist.schema.json"])["$defs"]["Profile"]
    for code in ("R", "W", "SW", "SO", "Z", "UW", "C", "M"):
        assert code in profile["properties"]
    assert {"required": ["W"]} in profile["allOf"][1]["anyOf"]


REPO = SCHEMAS.parent
BUNDLED = sorted(
    [*REPO.glob("scenarios/*.toml"), *REPO.glob("scenarios/moves/*.toml"), *REPO.glob("armylists/*.toml")]
)


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: str(p.relative_to(REPO)))
def test_bundled_files_point_editors_at_their_schema(path: Path) -> None:
    """Issue 20: the first line is Taplo's (Even Better TOML's) ``#:schema`` directive, the path
    relative to the file; the schema it names accepts the file."""
    import tomllib

    import jsonschema

    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("#:schema "), first
    schema_path = (path.parent / first.removeprefix("#:schema ").strip()).resolve()
    kind = {"scenarios": "scenario", "moves": "move", "armylists": "armylist"}[path.parent.name]
    assert schema_path == SCHEMAS / f"{kind}.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    jsonschema.validate(tomllib.loads(path.read_text(encoding="utf-8")), schema)
