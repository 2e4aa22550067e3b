"""Keeps a claims ledger's copies in step (docs/MODELS.md §9).

A model's ledger is docs/models/<model>_claims.yaml; its Markdown table in
docs/models/<model>.md (between ``<!-- ledger:begin -->`` and
``<!-- ledger:end -->``) is generated from it, and its ``tbdse:`` values come
from the reproduction test's own evaluation:

    TBDSE_LEDGER_VALUES=/tmp/values.jsonl .venv/bin/python -m pytest -m reproduction \\
        tests/test_juggler_reproduction.py
    .venv/bin/python scripts/ledger_sync.py juggler --values /tmp/values.jsonl
    .venv/bin/python scripts/ledger_sync.py --check      # docs match the YAML (a test runs it)

``--values`` rewrites each listed claim's ``tbdse:`` line with the value the
evaluator printed (statuses are never changed here: a verdict that moves
fails the reproduction test until the ledger says so by hand, with its
reason).  The share that holds is counted from the statuses.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "models"
MODELS = ("blockmaestro", "juggler", "wireframe")
BEGIN, END = "<!-- ledger:begin -->", "<!-- ledger:end -->"


def cell(text: object) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def table(model: str) -> str:
    """The Markdown table of docs/models/<model>_claims.yaml, with its share."""
    claims = yaml.safe_load((DOCS / f"{model}_claims.yaml").read_text())["claims"]
    holds = [c for c in claims if c["status"] == "holds"]
    kinds = {k: [c for c in claims if c["kind"] == k] for k in ("calibrated", "predicted")}
    share = ", ".join(
        f"{k} {sum(c['status'] == 'holds' for c in v)} of {len(v)}" for k, v in kinds.items()
    )
    lines = [
        f"Generated from [{model}_claims.yaml]({model}_claims.yaml) by "
        f"`scripts/ledger_sync.py`: **{len(holds)} of {len(claims)} hold** ({share}).",
        "",
        "| claim | where | paper | tbdse | tolerance | kind | holds |",
        "|---|---|---|---|---|---|---|",
    ]
    for c in claims:
        verdict = "yes" if c["status"] == "holds" else "**no**"
        fields = (c["id"], c["where"], c["paper"], c["tbdse"], c["tolerance"], c["kind"])
        lines.append("| " + " | ".join(cell(f) for f in fields) + f" | {verdict} |")
    return "\n".join(lines)


def with_table(doc: str, model: str) -> str:
    start, end = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    return doc[:start] + "\n" + table(model) + "\n" + doc[end:]


def set_values(model: str, values: dict[str, str]) -> int:
    """Rewrites the ``tbdse:`` line of each claim in ``values``; returns how many."""
    path = DOCS / f"{model}_claims.yaml"
    lines = path.read_text().splitlines(keepends=True)
    current, changed = None, 0
    for i, line in enumerate(lines):
        if m := re.match(r"\s*- id: (\S+)", line):
            current = m.group(1)
        elif current in values and re.match(r"\s+tbdse: ", line):
            indent = line[: len(line) - len(line.lstrip())]
            lines[i] = f"{indent}tbdse: {json.dumps(values[current], ensure_ascii=False)}\n"
            changed += 1
    path.write_text("".join(lines))
    yaml.safe_load(path.read_text())  # still valid
    return changed


def main(argv: list[str]) -> int:
    check = "--check" in argv
    values: dict[str, str] = {}
    if "--values" in argv:
        for line in Path(argv[argv.index("--values") + 1]).read_text().splitlines():
            row = json.loads(line)
            values[row["id"]] = row["value"]
    models = [a for a in argv if a in MODELS] or list(MODELS)
    stale = []
    for model in models:
        if values and not check:
            print(f"{model}: {set_values(model, values)} values updated")
        path = DOCS / f"{model}.md"
        doc = path.read_text()
        new = with_table(doc, model)
        if new != doc:
            if check:
                stale.append(str(path.relative_to(ROOT)))
            else:
                path.write_text(new)
                print(f"{path.relative_to(ROOT)}: table regenerated")
    if stale:
        print("ledger tables out of date (run scripts/ledger_sync.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
