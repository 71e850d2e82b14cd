"""Clients generated from the served schema play against a live server (`make test-clients`).

    python -m tests.clients.run [--port 8798]

Serves the API as `make run` does (tests/contract/run.py's server, a fresh SQLite database
under `var/clients/`), saves `/api/v1/schema`, then:

1. `openapi-python-client` (the `dev` extra) generates a Python client, with which
   `play_python.py` plays a 2-player game, a solo game against ASTRA and a campaign chapter
   through typed models only;
2. `openapi-typescript` turns the schema into TypeScript types, `tsc --strict` compiles
   `play_turn.ts` against them, and Node runs it: a turn played with typed options.

The npm packages (pinned in `package.json`) are installed with `npm ci` into `var/clients/node`;
Node and npm come from the system (`/usr/bin`). `make run` needs none of this.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.contract.run import ROOT, serve

HERE = Path(__file__).resolve().parent
WORK = ROOT / "var" / "clients"


def step(title: str) -> None:
    print(f"--- {title}", flush=True)


def run(command: list[str], **kwargs: object) -> None:
    subprocess.run(command, check=True, **kwargs)  # type: ignore[call-overload]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8798)
    args = parser.parse_args()
    bin_dir = Path(sys.executable).parent
    with serve(WORK / "server", args.port) as (base, _env):
        schema = WORK / "schema.json"
        with urllib.request.urlopen(f"{base}/schema?format=json", timeout=30) as response:
            schema.write_text(json.dumps(json.load(response), indent=1), encoding="utf-8")

        step("openapi-python-client: generate, then play three flows")
        python = WORK / "python"
        shutil.rmtree(python, ignore_errors=True)
        python.mkdir(parents=True)
        run([str(bin_dir / "openapi-python-client"), "generate", "--path", str(schema),
             "--meta", "none", "--output-path", str(python / "moon_client")])  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(python)}
        run([sys.executable, str(HERE / "play_python.py"), base], env=env)

        step("openapi-typescript: types, tsc --strict, a turn played with node")
        node = WORK / "node"
        node.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(HERE / name, node / name)
        run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=node)
        typescript = WORK / "ts"
        shutil.rmtree(typescript, ignore_errors=True)
        typescript.mkdir()
        for name in ("play_turn.ts", "tsconfig.json"):
            shutil.copy(HERE / name, typescript / name)
        tools = node / "node_modules" / ".bin"
        # a request field with a default (`visibility`) may be left out: not required
        generate = [str(tools / "openapi-typescript"), str(schema), "--default-non-nullable=false"]
        run([*generate, "-o", str(typescript / "schema.ts")])
        run([str(tools / "tsc"), "-p", str(typescript)])
        run(["node", str(typescript / "play_turn.js"), base])
    return 0


if __name__ == "__main__":
    sys.exit(main())
