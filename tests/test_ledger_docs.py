"""The claims-ledger tables in docs/models/*.md are generated from the
ledgers' YAML (scripts/ledger_sync.py): a ledger edited without its table,
or a table edited by hand, fails here."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def ledger_sync() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "ledger_sync", ROOT / "scripts" / "ledger_sync.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_tables_match_the_ledgers(capsys: pytest.CaptureFixture[str]) -> None:
    assert ledger_sync().main(["--check"]) == 0, capsys.readouterr().out


class Sandbox:
    """ledger_sync pointed at a docs folder of its own, with a values file."""

    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sync = ledger_sync()
        self.docs = tmp_path / "models"
        self.docs.mkdir()
        self.values = tmp_path / "values.jsonl"
        monkeypatch.setattr(self.sync, "DOCS", self.docs)
        monkeypatch.setattr(self.sync, "ROOT", tmp_path)

    def record(self, claim: str, value: str) -> None:
        self.values.write_text(json.dumps({"id": claim, "value": value, "holds": True}) + "\n")


def test_values_replace_only_the_tbdse_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box = Sandbox(tmp_path, monkeypatch)
    (box.docs / "wireframe_claims.yaml").write_text(
        "# head\nclaims:\n"
        '  - id: a\n    where: x\n    paper: p\n    tbdse: "old"\n    tolerance: t\n'
        "    kind: predicted\n    status: holds\n"
        '  - id: b\n    where: x\n    paper: p\n    tbdse: "kept"\n    tolerance: t\n'
        "    kind: calibrated\n    status: misses\n    reason: r\n"
    )
    (box.docs / "wireframe.md").write_text(
        "intro\n<!-- ledger:begin -->\n<!-- ledger:end -->\nend\n"
    )
    box.record("a", 'new "1.0" | 2')
    assert box.sync.main(["wireframe", "--values", str(box.values)]) == 0
    text = (box.docs / "wireframe_claims.yaml").read_text()
    assert text.startswith("# head\n") and 'tbdse: "new \\"1.0\\" | 2"' in text and '"kept"' in text
    doc = (box.docs / "wireframe.md").read_text()
    assert "**1 of 2 hold** (calibrated 0 of 1, predicted 1 of 1)" in doc
    assert '| a | x | p | new "1.0" \\| 2 | t | predicted | yes |' in doc
    assert doc.endswith("<!-- ledger:end -->\nend\n")
    assert box.sync.main(["wireframe", "--check"]) == 0


def test_a_value_spanning_lines_is_refused_and_nothing_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box = Sandbox(tmp_path, monkeypatch)
    ledger = (
        "claims:\n  - id: a\n    where: x\n    paper: p\n    tbdse: >-\n      two\n      lines\n"
        "    tolerance: t\n    kind: predicted\n    status: holds\n"
    )
    (box.docs / "juggler_claims.yaml").write_text(ledger)
    box.record("a", "new")
    with pytest.raises(SystemExit, match="spans lines"):
        box.sync.main(["juggler", "--values", str(box.values)])
    assert (box.docs / "juggler_claims.yaml").read_text() == ledger
