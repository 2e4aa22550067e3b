"""``python -m tbdse.experiment.schema``: rewrites the shipped experiment.schema.json
(``--check``: exit 1 if it differs from what the tables give; ``--print``:
write the schema to standard output)."""

from __future__ import annotations

import argparse
import sys

from tbdse.experiment.schema import schema_path, schema_text


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m tbdse.experiment.schema", description=__doc__)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    group.add_argument("--print", action="store_true", help="print the schema")
    args = parser.parse_args()
    text = schema_text()
    if args.print:
        sys.stdout.write(text)
        return 0
    path = schema_path()
    if args.check:
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            print(f"{path} is stale: run python -m tbdse.experiment.schema", file=sys.stderr)
            return 1
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
