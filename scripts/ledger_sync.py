"""Keeps a claims ledger's copies in step (docs/MODELS.md §9).

A model's ledger is docs/models/<model>_claims.yaml; its Markdown table in
docs/models/<model>.md (between ``<!-- ledger:begin -->`` and
``<!-- ledger:end -->``) is generated from it, and its ``tbdse:`` values come
from the reproduction test's own evaluation:

    TBDSE_LEDGER_VALUES=/tmp/values.jsonl .venv/bin/python -m pytest -m reproduction \\
        tests/test_juggler_reproduction.py
    .venv/bin/python scripts/ledger_sync.py juggler --values /tmp/values.jsonl
    .venv/bin/python scripts/ledger_sync.py --check      # docs match the YAML (a test runs it)

Start from an empty values file (it is appended to; the last value of an id
wins).  ``--values`` rewrites each listed claim's one-line ``tbdse:`` value with
the value the evaluator printed (statuses are never changed here: a verdict that moves
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
    kinds = {k: [c for c in claims if c["kind"] == k] for k in ("calibrated", "predicted", "input")}
    share = ", ".join(
        f"{k} {sum(c['status'] == 'holds' for c in v)} of {len(v)}"
        for k, v in kinds.items()
        if v or k != "input"  # 'input' only where a ledger has such claims
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
    begin, end = doc.find(BEGIN), doc.find(END)
    if begin < 0 or end < begin:
        raise SystemExit(f"docs/models/{model}.md needs {BEGIN} before {END}")
    return doc[: begin + len(BEGIN)] + "\n" + table(model) + "\n" + doc[end:]


def set_values(model: str, values: dict[str, str]) -> set[str]:
    """Rewrites the one-line ``tbdse:`` value of each claim in ``values``;
    returns the ids it wrote.  The file is written only if it still parses."""
    path = DOCS / f"{model}_claims.yaml"
    lines = path.read_text().splitlines(keepends=True)
    current, written = None, set()
    for i, line in enumerate(lines):
        if m := re.match(r"(\s*)- (\w+):", line):
            current = line.split(":", 1)[1].strip() if m.group(2) == "id" else None
        elif current in values and re.match(r"\s+tbdse: ", line):
            if re.match(r"\s+tbdse: *[>|]", line) or (
                i + 1 < len(lines) and not re.match(r"\s*(- )?\w+:|\s*$|\s*#", lines[i + 1])
            ):
                raise SystemExit(f"{path.name}: {current}'s tbdse value spans lines; make it one")
            indent = line[: len(line) - len(line.lstrip())]
            lines[i] = f"{indent}tbdse: {json.dumps(values[current], ensure_ascii=False)}\n"
            written.add(current)
    text = "".join(lines)
    yaml.safe_load(text)  # still valid, or nothing is written
    path.write_text(text)
    return written


def main(argv: list[str]) -> int:
    check = "--check" in argv
    values: dict[str, str] = {}
    if "--values" in argv:
        if argv.index("--values") + 1 >= len(argv):
            raise SystemExit("--values needs the file the reproduction tests wrote")
        for line in Path(argv[argv.index("--values") + 1]).read_text().splitlines():
            row = json.loads(line)
            values[row["id"]] = row["value"]
    models = [a for a in argv if a in MODELS] or list(MODELS)
    stale = []
    unused = set(values)
    for model in models:
        if values and not check:
            written = set_values(model, values)
            unused -= written
            print(f"{model}: {len(written)} values updated")
        path = DOCS / f"{model}.md"
        doc = path.read_text()
        new = with_table(doc, model)
        if new != doc:
            if check:
                stale.append(str(path.relative_to(ROOT)))
            else:
                path.write_text(new)
                print(f"{path.relative_to(ROOT)}: table regenerated")
    if values and not check and unused:
        print("values for no claim of these ledgers: " + ", ".join(sorted(unused)))
    if stale:
        print("ledger tables out of date (run scripts/ledger_sync.py): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
