"""The committed JSON Schemas are fresh: generated from the models and committed
(docs/decisions.md "Files")."""

from __future__ import annotations

from pathlib import Path

import pytest

from szwadron.schemas import SCHEMA_MODELS, json_schema, render

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


@pytest.mark.parametrize("file_name", sorted(SCHEMA_MODELS))
def test_committed_schema_is_fresh(file_name: str) -> None:
    committed = (SCHEMAS / file_name).read_text(encoding="utf-8")
    assert committed == render(SCHEMA_MODELS[file_name]), (
        f"schemas/{file_name} is stale: run `python -m szwadron.schemas`"
    )


def test_schema_lists_rulebook_codes() -> None:
    """1.1 — the rulebook's codes are accepted, so the schema names them."""
    profile = json_schema(SCHEMA_MODELS["armylist.schema.json"])["$defs"]["Profile"]
    for code in ("R", "W", "SW", "SO", "Z", "UW", "C", "M"):
        assert code in profile["properties"]
    assert {"required": ["W"]} in profile["allOf"][1]["anyOf"]
