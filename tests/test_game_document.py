"""The scenario file changed in place (issue 17, ``szwadron.game.document``): the changes give the
data they say, whatever the file's layout, and keep its comments; replaying a log's changes in
one document gives the same text as applying them action by action from the files."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

from szwadron.game.document import ScenarioDocument

ONE_A_LINE = """# a comment at the top
name = "t"

[[units]]
id = "a"   # the first unit
side = "A"
bases = [
  { x = 1.0, y = 2.0, facing = 90.0 },  # left
  { x = 3.0, y = 2.0, facing = 90.0, profile = "grenadiers" },
  {x=5,y=2,facing=90}
]
initial_strength = 4

# the next unit
[[units]]
id = "b"
side = "B"
bases = [{ x = 1.0, y = 9.0, facing = 270.0 }, { x = 3.0, y = 9.0, facing = 270.0 }]
"""

SUB_TABLE = """name = "t"

[[units]]
id = "a"
side = "A"
bases = [
  { x = 1.0, y = 2.0, facing = 90.0 },
  { x = 3.0, y = 2.0, facing = 90.0 },
  { x = 5.0, y = 2.0, facing = 90.0 },
]

[units.profile]
id = "inline"
kind = "infantry"
"""

CHANGES: list[list[dict[str, Any]]] = [
    [{"op": "move", "unit": "a", "poses": [[0, 1.0, 4.0, 90.0], [2, 5.0, 4.0, 45.0]]}],
    [{"op": "remove", "unit": "a", "bases": [1]}, {"op": "set", "unit": "a", "field": "state", "value": "panic"}],
    [{"op": "set", "unit": "a", "field": "initial_strength", "value": 5}],
    [{"op": "set", "unit": "a", "field": "state", "value": None}, {"op": "set", "unit": "a", "field": "acted", "value": "move"}],
    [{"op": "move", "unit": "b", "poses": [[1, 3.0, 8.0, 270.0]]}, {"op": "remove", "unit": "b", "bases": [0]}],
    [{"op": "set", "unit": "b", "field": "engaged_with", "value": ["a"]}],
    [{"op": "turn", "value": {"round": 1, "side": "A", "phase": "morale"}}],
    [{"op": "drop", "unit": "b"}],
]  # fmt: skip


def _expected(data: dict[str, Any], change: dict[str, Any]) -> None:
    """What a change does to the data (the reference)."""
    if change["op"] == "turn":
        data["turn"] = dict(change["value"])
        return
    units = data["units"]
    unit = next(u for u in units if u["id"] == change["unit"])
    if change["op"] == "move":
        for i, x, y, f in change["poses"]:
            unit["bases"][i].update(x=x, y=y, facing=f)
    elif change["op"] == "remove":
        for i in sorted(change["bases"], reverse=True):
            del unit["bases"][i]
    elif change["op"] == "set":
        if change["value"] is None:
            unit.pop(change["field"], None)
        else:
            unit[change["field"]] = change["value"]
    elif change["op"] == "drop":
        units.remove(unit)


@pytest.mark.parametrize(
    "text", [ONE_A_LINE, SUB_TABLE.replace('"a"', '"a"', 1)], ids=["one-a-line", "sub-table"]
)
def test_changes_give_the_data_they_say(text: str) -> None:
    data = tomllib.loads(text)
    doc = ScenarioDocument(text)
    for action in CHANGES:
        action = [c for c in action if c.get("unit") in (None, *(u["id"] for u in data["units"]))]
        doc.apply(action)
        for change in action:
            _expected(data, change)
        assert tomllib.loads(doc.text) == data
    assert "# a comment at the top" in doc.text or text is SUB_TABLE


def test_comments_and_layout_kept() -> None:
    doc = ScenarioDocument(ONE_A_LINE)
    doc.apply(CHANGES[0])
    out = doc.text
    assert "  { x = 1.0, y = 4.0, facing = 90.0 },  # left\n" in out
    assert 'id = "a"   # the first unit\n' in out and "# the next unit\n[[units]]" in out
    assert out.replace("y = 4.0", "y = 2.0").count("\n") == ONE_A_LINE.count("\n")


def test_one_document_equals_action_by_action() -> None:
    """Replaying in one document gives the text each action writes from its file (the log's hashes)."""
    doc = ScenarioDocument(ONE_A_LINE)
    text = ONE_A_LINE
    for action in CHANGES:
        doc.apply(action)
        fresh = ScenarioDocument(text)
        fresh.apply(action)
        text = fresh.text
        assert doc.text == text
