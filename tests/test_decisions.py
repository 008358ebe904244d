"""``docs/decisions.md`` is the project's own record of its decisions (PD-n, issue 13).

- every PD cited anywhere in the repository is listed there;
- every setting it names is a field of :class:`szwadron.settings.RulesSettings`, with the default
  it states, and the fields whose description cites PD-n are exactly those listed under PD-n;
- every module it names exists and cites the PD, and every library module citing a PD is named;
- no file cites a document the repository does not have (the shared design notes, the rules
  digest and the rulebook live outside it), nor a section or anchor its document does not have.

The checks are functions of the repository's root, so the last tests run them on a small made-up
repository with every kind of fault and see each one reported.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from szwadron.settings import RulesSettings

REPO = Path(__file__).resolve().parents[1]
DECISIONS = Path("docs") / "decisions.md"

#: What is scanned for citations: the whole repository except build output and this file, which
#: holds deliberately bad citations for the tests at its end.
SCANNED = (
    "szwadron",
    "tests",
    "docs",
    "armylists",
    "benchmarks",
    "scripts",
    "schemas",
    "scenarios",
    "README.md",
    "pyproject.toml",
    ".ci/run",
)
TEXT_SUFFIXES = {".py", ".md", ".toml", ".json", ".txt", ".out", ".cfg", ".yml", ".yaml", ""}
SKIPPED_DIRS = {"__pycache__", ".venv", ".mypy_cache", ".pytest_cache", ".ruff_cache", "_bundled"}
THIS_FILE = Path("tests") / "test_decisions.py"

PD = re.compile(r"\bPD-(\d+)\b")
#: A document path: ``README.md``, ``docs/tour.md``, ``../seeds/rules.txt`` (not part of a URL).
DOC_PATH = re.compile(r"(?<![\w/.-])((?:\.\.?/)*[\w-][\w.-]*(?:/[\w.-]+)*\.(?:md|txt|rst))(?![\w-])")
#: A path into the shared folder outside the repository, or an absolute path to the work area.
OUTSIDE = re.compile(r"(?:\.\./)+shared/|(?<![\w.-])shared/(?:rules|seeds)/|/work/")
#: ``docs/decisions.md "Layers"`` or ``README.md, "Files"``: a section of a document.
SECTION = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.md),?\s+\"([^\"\n]+)\"")
#: ``docs/decisions.md#pd-7``: a heading of a document.
ANCHOR = re.compile(r"((?:[\w.-]+/)*[\w.-]+\.md)#([a-z0-9][a-z0-9-]*)")
#: ``](#conventions)`` inside a Markdown file: a heading of the same file.
LOCAL_ANCHOR = re.compile(r"\]\(#([a-z0-9][a-z0-9-]*)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*$", re.MULTILINE)
PD_HEADING = re.compile(r"^## PD-(\d+) — (.+)$", re.MULTILINE)
FIELDS = ("Settles", "Setting", "Applied in", "Shown by", "Tests")
TICKED = re.compile(r"`([^`]+)`")
HELD = re.compile(r"`(\w+)` = (\"[^\"]*\"|[-+0-9.e]+)")


def scanned_files(root: Path) -> Iterator[Path]:
    """Text files of the repository that may cite a PD or a document, relative to ``root``."""
    for name in SCANNED:
        top = root / name
        paths = [top] if top.is_file() else sorted(top.rglob("*")) if top.is_dir() else []
        for p in paths:
            rel = p.relative_to(root)
            if (
                p.is_file()
                and p.suffix in TEXT_SUFFIXES
                and rel != THIS_FILE
                and not SKIPPED_DIRS.intersection(rel.parts)
                and not any(part.endswith(".egg-info") for part in rel.parts)
            ):
                yield rel


def lines_of(root: Path, rel: Path) -> list[str]:
    return (root / rel).read_text(encoding="utf-8", errors="replace").splitlines()


@dataclass
class Decision:
    """One ``## PD-n`` section of the record."""

    number: int
    title: str
    fields: dict[str, str] = field(default_factory=dict)

    def ticked(self, name: str) -> list[str]:
        return TICKED.findall(self.fields.get(name, ""))

    def held(self) -> dict[str, str]:
        """Settings that hold this decision's number: ``name`` = default."""
        return dict(HELD.findall(self.fields.get("Setting", "")))


def parse_decisions(text: str) -> tuple[dict[int, Decision], list[str]]:
    """The ``## PD-n — title`` sections of ``text`` and the problems of their shape."""
    problems: list[str] = []
    decisions: dict[int, Decision] = {}
    heads = list(PD_HEADING.finditer(text))
    for k, m in enumerate(heads):
        n = int(m.group(1))
        end = heads[k + 1].start() if k + 1 < len(heads) else len(text)
        body = text[m.end() : end].split("\n## ", 1)[0]
        if n in decisions:
            problems.append(f"{DECISIONS}: PD-{n} is listed twice")
        d = Decision(n, m.group(2))
        # "- **Name:** value", the value running on over indented lines
        for fm in re.finditer(r"^- \*\*([^*]+):\*\*(.*(?:\n  .*)*)", body, re.MULTILINE):
            d.fields[fm.group(1)] = " ".join(fm.group(2).split())
        missing = [f for f in FIELDS if f not in d.fields]
        if missing:
            problems.append(f"{DECISIONS}: PD-{n} lacks {', '.join(missing)}")
        decisions[n] = d
    return decisions, problems


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def module_path(root: Path, dotted: str) -> Path | None:
    """``szwadron.table.fire`` → its file or package folder under ``root``, if it exists."""
    base = root.joinpath(*dotted.split("."))
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    if (base / "__init__.py").is_file():
        return base
    return None


def cites(path: Path, n: int) -> bool:
    files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return any(re.search(rf"\bPD-{n}\b", f.read_text(encoding="utf-8")) for f in files)


def module_of(rel: Path) -> str:
    parts = rel.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def covered(module: str, listed: set[str]) -> bool:
    """A module is named by itself or an enclosing package; a package by any module in it."""
    return any(module == m or module.startswith(m + ".") or m.startswith(module + ".") for m in listed)


def check_record(root: Path) -> list[str]:
    """Every problem of ``root``'s decision record and its citations of PDs."""
    record = root / DECISIONS
    if not record.is_file():
        return [f"{DECISIONS}: missing"]
    decisions, problems = parse_decisions(record.read_text(encoding="utf-8"))
    fields = RulesSettings.model_fields
    defaults = RulesSettings()

    # every PD cited anywhere is listed
    citing: dict[int, set[str]] = {}
    for rel in scanned_files(root):
        for i, line in enumerate(lines_of(root, rel), 1):
            for m in PD.finditer(line):
                n = int(m.group(1))
                if n not in decisions:
                    problems.append(f"{rel}:{i}: cites PD-{n}, which {DECISIONS} does not list")
                if rel.parts[0] == "szwadron" and rel.suffix == ".py":
                    citing.setdefault(n, set()).add(module_of(rel))

    for n, d in sorted(decisions.items()):
        where = f"{DECISIONS}, PD-{n}"
        # settings: names exist, defaults are as stated, descriptions cite the PD
        held = d.held()
        for name in d.ticked("Setting"):
            if "." in name:
                mod, _, attr = name.rpartition(".")
                try:
                    ok = hasattr(importlib.import_module(mod), attr)
                except ImportError:
                    ok = False
                if not ok:
                    problems.append(f"{where}: setting {name} does not exist")
            elif "_" in name and name not in fields:
                problems.append(f"{where}: {name} is not a field of RulesSettings")
        for name, stated in held.items():
            if name not in fields:
                continue
            default = getattr(defaults, name)
            same = (
                stated.strip('"') == default
                if stated.startswith('"')
                else not isinstance(default, str) and float(stated) == float(default)
            )
            if not same:
                problems.append(f"{where}: {name} = {stated}, but its default is {default!r}")
            if not re.search(rf"\bPD-{n}\b", fields[name].description or ""):
                problems.append(f"{where}: the description of {name} does not cite PD-{n}")
        # modules: they exist and cite the PD; every library module citing it is named
        listed: set[str] = set()
        for label in ("Applied in", "Shown by"):
            for name in d.ticked(label):
                path = module_path(root, name)
                if path is None:
                    problems.append(f"{where}: module {name} does not exist")
                elif not cites(path, n):
                    problems.append(f"{where}: module {name} does not cite PD-{n}")
                listed.add(name)
        for module in sorted(citing.get(n, ())):
            if module == "szwadron.settings" and held:
                continue
            if not covered(module, listed):
                problems.append(f"{where}: {module} cites PD-{n}; name it under Applied in or Shown by")
        for name in d.ticked("Tests"):
            if not (root / name).is_file():
                problems.append(f"{where}: test {name} does not exist")
            elif not cites(root / name, n):
                problems.append(f"{where}: test {name} does not cite PD-{n}")

    # settings whose description cites a PD are listed under it
    for name, info in fields.items():
        for m in PD.finditer(info.description or ""):
            n = int(m.group(1))
            if n in decisions and name not in decisions[n].held():
                problems.append(
                    f"RulesSettings.{name} cites PD-{n}, but {DECISIONS} does not list it under PD-{n}"
                )
    return problems


def check_documents(root: Path) -> list[str]:
    """Every citation in ``root`` of a document, section or anchor that ``root`` does not have."""
    problems: list[str] = []
    headings: dict[Path, set[str]] = {}

    def heads(doc: Path) -> set[str]:
        if doc not in headings:
            headings[doc] = {h for h in HEADING.findall(doc.read_text(encoding="utf-8"))}
        return headings[doc]

    names = {p.name: root / p for p in scanned_files(root)}

    def resolve(rel: Path, cited: str) -> Path | None:
        """The file ``cited`` names: from the root, from the citing file's folder, or — a bare
        name, as in ``REPO / "docs" / "tour.md"`` — a file of that name in the repository."""
        for base in (root, (root / rel).parent):
            p = (base / cited).resolve()
            if p.is_file() and p.is_relative_to(root.resolve()):
                return p
        return names.get(cited) if "/" not in cited else None

    for rel in scanned_files(root):
        for i, line in enumerate(lines_of(root, rel), 1):
            at = f"{rel}:{i}"
            for m in OUTSIDE.finditer(line):
                problems.append(f"{at}: cites {m.group(0)!r}, outside the repository")
            for m in DOC_PATH.finditer(line):
                if resolve(rel, m.group(1)) is None:
                    problems.append(f"{at}: cites {m.group(1)}, which the repository does not have")
            for m in SECTION.finditer(line):
                doc = resolve(rel, m.group(1))
                if doc is not None and m.group(2) not in heads(doc):
                    problems.append(f'{at}: {m.group(1)} has no section "{m.group(2)}"')
            anchors = [(resolve(rel, m.group(1)), m.group(2)) for m in ANCHOR.finditer(line)]
            if rel.suffix == ".md":
                anchors += [(root / rel, m.group(1)) for m in LOCAL_ANCHOR.finditer(line)]
            for doc, anchor in anchors:
                if doc is not None and anchor not in {slug(h) for h in heads(doc)}:
                    problems.append(f"{at}: no heading of {doc.relative_to(root)} has the anchor #{anchor}")
    return problems


# --- the repository ---------------------------------------------------------------------------


def test_every_cited_pd_is_recorded_with_real_settings_and_modules() -> None:
    """PD-1…PD-n: cited ⇒ listed; settings and modules named exist and agree with the code."""
    problems = check_record(REPO)
    assert not problems, "\n".join(problems)


def test_no_citation_of_a_document_the_repository_does_not_have() -> None:
    problems = check_documents(REPO)
    assert not problems, "\n".join(problems)


def test_the_record_lists_every_decision_once_in_order() -> None:
    decisions, problems = parse_decisions((REPO / DECISIONS).read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)
    assert list(decisions) == list(range(1, len(decisions) + 1))
    assert len(decisions) >= 18


def test_every_decision_setting_cites_its_decision() -> None:
    """The fields of RulesSettings that hold a PD's number cite it (and the record says so)."""
    decisions, _ = parse_decisions((REPO / DECISIONS).read_text(encoding="utf-8"))
    for n, d in decisions.items():
        for name in d.held():
            assert f"PD-{n}" in (RulesSettings.model_fields[name].description or ""), (n, name)


# --- the checks catch what they are for ---------------------------------------------------------

FAKE_RECORD = """# Decisions

See [the glossary](#glossary) and [nowhere](#nowhere).

## Glossary

## PD-1 — A made-up decision

- **Settles:** 1.2.
- **Setting:** `contact_tolerance_cm` = 0.07, `no_such_setting_cm` = 1,
  `szwadron.models.NO_SUCH_NAME`
- **Applied in:** `szwadron.a`, `szwadron.gone`
- **Shown by:** `szwadron.quiet`
- **Tests:** `tests/test_a.py`, `tests/test_gone.py`

## PD-3 — Another

- **Settles:** 1.3.
- **Setting:** none.
"""


@pytest.fixture
def fake_repo(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "decisions.md").write_text(FAKE_RECORD, encoding="utf-8")
    (tmp_path / "szwadron").mkdir()
    (tmp_path / "szwadron" / "a.py").write_text(
        '"""PD-1, PD-99 (design.md; rules/szwadron-rules.md; ../shared/seeds/x.txt).\n\n'
        'See docs/decisions.md "Glossary", docs/decisions.md "Layers" and docs/decisions.md#pd-2."""\n',
        encoding="utf-8",
    )
    (tmp_path / "szwadron" / "b.py").write_text("# applies PD-1 too\n", encoding="utf-8")
    (tmp_path / "szwadron" / "quiet.py").write_text("# cites nothing\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text('"""No decision here."""\n', encoding="utf-8")
    return tmp_path


def test_check_record_reports_every_fault(fake_repo: Path) -> None:
    problems = "\n".join(check_record(fake_repo))
    expected = [
        "szwadron/a.py:1: cites PD-99, which docs/decisions.md does not list",
        "PD-1: contact_tolerance_cm = 0.07, but its default is 0.05",
        "PD-1: the description of contact_tolerance_cm does not cite PD-1",
        "PD-1: no_such_setting_cm is not a field of RulesSettings",
        "PD-1: setting szwadron.models.NO_SUCH_NAME does not exist",
        "PD-1: module szwadron.gone does not exist",
        "PD-1: module szwadron.quiet does not cite PD-1",
        "PD-1: szwadron.b cites PD-1; name it under Applied in or Shown by",
        "PD-1: test tests/test_a.py does not cite PD-1",
        "PD-1: test tests/test_gone.py does not exist",
        "PD-3 lacks Applied in, Shown by, Tests",
        "RulesSettings.contact_tolerance_cm cites PD-3, but docs/decisions.md does not list it under PD-3",
    ]
    for e in expected:
        assert e in problems, f"not reported: {e}\n--- reported:\n{problems}"
    assert "szwadron.a cites" not in problems  # named, and it cites PD-1


def test_check_documents_reports_every_fault(fake_repo: Path) -> None:
    problems = "\n".join(check_documents(fake_repo))
    expected = [
        "szwadron/a.py:1: cites design.md, which the repository does not have",
        "szwadron/a.py:1: cites rules/szwadron-rules.md, which the repository does not have",
        "szwadron/a.py:1: cites '../shared/', outside the repository",
        'szwadron/a.py:3: docs/decisions.md has no section "Layers"',
        "szwadron/a.py:3: no heading of docs/decisions.md has the anchor #pd-2",
        "docs/decisions.md:3: no heading of docs/decisions.md has the anchor #nowhere",
    ]
    for e in expected:
        assert e in problems, f"not reported: {e}\n--- reported:\n{problems}"
    assert '"Glossary"' not in problems and "#glossary" not in problems


def test_slug_is_the_anchor_of_a_heading() -> None:
    assert slug("PD-7 — The band of sight") == "pd-7--the-band-of-sight"
    assert slug("Rulebook sections") == "rulebook-sections"
