"""Comments cite only documents inside the repository: not the design documents or research notes that live beside
it (a reader of the code does not have them), and no file of the repository that does not exist (a module that
moved). Checked over every comment and docstring of the package, the tests, the benchmarks and the web UI."""

import io
import re
import tokenize
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "training_platform"
# The documents beside the repository: the product's seeds, its mission and architecture sketch, the research notes.
OUTSIDE = re.compile(
    r"\bseeds?\s+0\d\d\b|\bseed0\d\d|\bMISSION\b|\bARCHITECTURE\.md\b|\bshared/|\bresearch/[\w.-]+\.md"
)
# A path with a folder and a file name; it is the repository's when its first folder is one of the repository's
# (`docs/…`, `tests/…`) or of the package (`jobs/…`), or the web UI's sources (`api/…` there).
PATH = re.compile(r"(?<![\w./-])((?:[\w-]+/)+[\w.-]+\.(?:py|md|ts|vue|toml|txt|json|ini))\b")
BASES = (REPO, PACKAGE, REPO / "frontend", REPO / "frontend" / "src")
SOURCES = [
    *PACKAGE.rglob("*.py"),
    *(REPO / "tests").rglob("*.py"),
    *(REPO / "benchmarks").rglob("*.py"),
    *(REPO / "frontend" / "src").rglob("*.ts"),
    *(REPO / "frontend" / "src").rglob("*.vue"),
]
GENERATED = {REPO / "frontend" / "src" / "api" / "schema.d.ts"}


def comments(path: Path):
    """(line, text) of each comment and docstring-like string: Python's through its tokenizer, the web UI's
    `//`, `/* */` and `<!-- -->`."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            is_block = token.type == tokenize.STRING and token.string.lstrip("rbuRBU").startswith(('"""', "'''"))
            if token.type == tokenize.COMMENT or is_block:
                yield token.start[0], token.string
        return
    for match in re.finditer(r"//[^\n]*|/\*.*?\*/|<!--.*?-->", text, re.S):
        yield text.count("\n", 0, match.start()) + 1, match.group()


def citation_problems(path: Path) -> list[str]:
    problems = []
    for line, text in comments(path):
        where = f"{path.name}:{line}"
        problems += [f"{where}: cites '{m.group()}', outside the repository" for m in OUTSIDE.finditer(text)]
        for match in PATH.finditer(text):
            cited = match.group(1)
            first = cited.split("/")[0]
            ours = any((base / first).is_dir() for base in BASES)
            if ours and not any((base / cited).exists() for base in BASES):
                problems.append(f"{where}: cites {cited}, which does not exist")
    return problems


def test_comments_cite_only_documents_inside_the_repository():
    problems = {
        str(path.relative_to(REPO)): found
        for path in SOURCES
        if path not in GENERATED and (found := citation_problems(path))
    }
    assert problems == {}


def test_a_seed_a_research_note_or_a_moved_module_is_found(tmp_path):
    planted = tmp_path / "planted_citations.py"
    planted.write_text(
        '"""Normal ranges from seed 002 §6.2 (MISSION §5)."""\n'
        "# as runners/devices.py decides; see research/anchors.md and docs/nowhere.md\n"
        "# deepspeed's runtime/zero/stage3.py is not ours to check\n"
    )
    problems = [problem.split(": ", 1)[1] for problem in citation_problems(planted)]
    assert problems == [
        "cites 'seed 002', outside the repository",
        "cites 'MISSION', outside the repository",
        "cites 'research/anchors.md', outside the repository",
        "cites docs/nowhere.md, which does not exist",
    ]
