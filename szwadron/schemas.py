"""JSON Schemas of the file formats and of the ``--json`` documents, generated from the data
models (docs/decisions.md "Files"): :mod:`szwadron.models` for the input files,
:mod:`szwadron.documents` for the documents (in ``schemas/output/``).

The committed copies live in ``schemas/``; ``python -m szwadron.schemas`` rewrites them, and a test
fails when they are stale. Editors that understand JSON Schema (for TOML too, e.g. Taplo or
Even Better TOML) use them to complete and check scenario and army-list files.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from szwadron.documents import DOCUMENT_MODELS
from szwadron.models import AMMUNITION_CODES, PROFILE_CODES, ArmyList, RosterFile, Scenario
from szwadron.movefile import MoveFile

#: file name → model
SCHEMA_MODELS: dict[str, type[BaseModel]] = {
    "scenario.schema.json": Scenario,
    "armylist.schema.json": ArmyList,
    "roster.schema.json": RosterFile,
    "move.schema.json": MoveFile,
}

#: Sub-folder of the schemas of the ``--json`` documents (file name → model: DOCUMENT_MODELS).
OUTPUT_FOLDER = "output"


def all_schemas() -> dict[str, type[BaseModel]]:
    """Every committed schema: path under ``schemas/`` → model (input files, then outputs)."""
    return {**SCHEMA_MODELS, **{f"{OUTPUT_FOLDER}/{name}": m for name, m in DOCUMENT_MODELS.items()}}


def _add_code_aliases(schema: dict[str, Any]) -> None:
    """The rulebook codes (1.1) are accepted as aliases: list them as properties too."""
    for name, codes in (("Profile", PROFILE_CODES), ("Ammunition", AMMUNITION_CODES)):
        definition = schema.get("$defs", {}).get(name)
        if definition is None:
            continue
        props = definition["properties"]
        for code, field in codes.items():
            alias = dict(props[field])
            alias["description"] = f"Rulebook code for '{field}' (1.1)."
            alias.pop("title", None)
            props[code] = alias
        required = definition.get("required", [])
        definition["required"] = [r for r in required if r not in codes.values()]
        definition["allOf"] = [
            {"anyOf": [{"required": [field]}, {"required": [code]}]}
            for code, field in codes.items()
            if field in required
        ]


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a file model, rulebook codes included."""
    schema = model.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    _add_code_aliases(schema)
    return schema


def render(model: type[BaseModel]) -> str:
    """The schema as the committed text (2-space indent, trailing newline)."""
    return json.dumps(json_schema(model), indent=2, ensure_ascii=False) + "\n"


def write_schemas(folder: Path) -> list[Path]:
    """Write every schema into ``folder``; return the paths."""
    written = []
    for file_name, model in all_schemas().items():
        path = folder / file_name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(model), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    """``python -m szwadron.schemas [FOLDER]`` (default: ``schemas/`` of the repository)."""
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else Path(__file__).resolve().parent.parent / "schemas"
    for path in write_schemas(folder):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

__all__ = ["OUTPUT_FOLDER", "SCHEMA_MODELS", "all_schemas", "json_schema", "main", "render", "write_schemas"]
