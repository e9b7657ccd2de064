"""The files of Maya's two repositories, as they stand at the tip of the default branch.

Why generated from PERSONA: a repository analyzer reads manifests, CI workflows, Makefiles,
CODEOWNERS and CONTRIBUTING to learn how Maya works (test and lint commands, package
manager, commit convention). Those files quote PERSONA's commands, so an extractor that
recovers PERSONA's facts has really read them. Lock files are shaped like uv's and pnpm's
(their hashes are placeholders derived from the package name, not real artifacts).
"""

from __future__ import annotations

import hashlib

from .persona import PERSONA

__all__ = ["CONSOLE_FILES", "EXECUTABLE", "LEDGER_FILES", "console_config", "ledger_settings"]

_LEDGER, _CONSOLE = PERSONA["repos"]
EXECUTABLE = {"scripts/deploy.sh"}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _uv_lock(packages: list[tuple[str, str]]) -> str:
    head = ['version = 1', 'revision = 2', 'requires-python = ">=3.12"', '', '[[package]]',
            'name = "ledger-api"', 'version = "0.4.0"', 'source = { editable = "." }', 'dependencies = [']
    runtime = [p for p in packages if p[0] not in ("pytest", "ruff")]
    head += [f'    {{ name = "{name}" }},' for name, _ in runtime] + [']', '']
    head += ['[package.dev-dependencies]', 'dev = [', '    { name = "pytest" },', '    { name = "ruff" },', ']', '']
    for name, version in packages:
        digest = _sha(f"{name}-{version}")
        head += ['[[package]]', f'name = "{name}"', f'version = "{version}"',
                 'source = { registry = "https://pypi.org/simple" }',
                 f'sdist = {{ url = "https://files.pythonhosted.org/packages/{digest[:2]}/{name}-{version}.tar.gz", '
                 f'hash = "sha256:{digest}", size = {int(digest[:5], 16)} }}', '']
    return "\n".join(head)


_CI_WORKFLOW = """name: CI
on:
  push:
    branches: [{branch}]
  pull_request:
jobs:
  {job}:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
{steps}"""


def _ci_workflow(branch: str, job: str, setup: str, commands: list[str]) -> str:
    """The GitHub Actions workflow both repositories keep: on a push to ``branch`` and on pull
    requests, one ``job`` that checks out, takes the ``setup`` steps (YAML lines), then runs
    each of ``commands`` (the repository analyzer reads the test and lint commands from here)."""
    runs = "".join(f"      - run: {command}\n" for command in commands)
    return _CI_WORKFLOW.format(branch=branch, job=job, steps=setup + runs)


_LEDGER_PKGS = [("fastapi", "0.115.4"), ("pydantic", "2.9.2"), ("pytest", "8.3.3"), ("ruff", "0.7.2"),
                ("sqlalchemy", "2.0.36"), ("uvicorn", "0.32.0")]


def ledger_settings(page_size: int = 100, snapshot_every: int = 500, batch: int = 1000, timeout: int = 5) -> str:
    """settings.py; scaled builds tune these numbers in extra commits."""
    return (f'"""Runtime settings for ledger-api (env overrides in deployment)."""\n\n'
            f"DEFAULT_PAGE_SIZE = {page_size}\nSNAPSHOT_EVERY = {snapshot_every}\n"
            f"RECONCILE_BATCH = {batch}\nHTTP_TIMEOUT_S = {timeout}\nREAD_SWITCH_ENABLED = False\n")


LEDGER_FILES: dict[str, str] = {
    "pyproject.toml": """[project]
name = "ledger-api"
version = "0.4.0"
description = "Double-entry ledger service for Northwind payments"
requires-python = ">=3.12"
dependencies = ["fastapi>=0.115", "pydantic>=2.9", "sqlalchemy>=2.0", "uvicorn>=0.32"]

[dependency-groups]
dev = ["pytest>=8.3", "ruff>=0.7"]

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[tool.ruff]
line-length = 100
target-version = "py312"

[tool.ruff.lint]
select = ["E", "F", "I", "B", "UP"]

[tool.pytest.ini_options]
testpaths = ["tests"]
addopts = "-q"
""",
    "uv.lock": _uv_lock(_LEDGER_PKGS),
    ".python-version": "3.12\n",
    ".gitignore": ".venv/\n__pycache__/\n.pytest_cache/\n.ruff_cache/\ndist/\n",
    "Makefile": f""".PHONY: test lint format run

test:
\t{_LEDGER['test']}

lint:
\t{_LEDGER['lint']}

format:
\t{_LEDGER['format']}

run:
\tuv run uvicorn ledger_api.api:app --reload
""",
    ".github/workflows/ci.yml": _ci_workflow(_LEDGER["default_branch"], "test", "      - uses: astral-sh/setup-uv@v3\n",
                                             ["uv sync --locked", _LEDGER["lint"], _LEDGER["test"]]),
    ".github/CODEOWNERS": "* @maya-okafor @priya-raman\n",
    "README.md": f"""# ledger-api

The {_LEDGER['purpose']}: accounts, postings that always balance, reversals and a nightly
reconciliation job. Maintained by {PERSONA['team']} ({PERSONA['employer']}).

## Development

```
uv sync
{_LEDGER['test']}
{_LEDGER['lint']}
```

`make test` and `make lint` do the same. On call? See the ledger-api on-call runbook.
""",
    "CONTRIBUTING.md": f"""# Contributing to ledger-api

- Commit messages follow {_LEDGER['commit_convention']} (`feat:`, `fix:`, `chore:`, `docs:` ...).
- One concern per pull request; squash-merge into `{_LEDGER['default_branch']}`.
- Run `{_LEDGER['test']}` and `{_LEDGER['lint']}` before pushing; CI runs both.
- Format with `{_LEDGER['format']}`.
""",
    "src/ledger_api/__init__.py": '"""ledger-api: double-entry ledger service."""\n\n__version__ = "0.4.0"\n',
    "src/ledger_api/settings.py": ledger_settings(),
    "src/ledger_api/models.py": '''"""Accounts and postings."""

from dataclasses import dataclass
from decimal import Decimal


@dataclass(frozen=True)
class Posting:
    account_id: str
    amount: Decimal
    reference: str


def balanced(postings: list[Posting]) -> bool:
    """Double entry: the amounts of one journal entry sum to zero."""
    return sum((p.amount for p in postings), Decimal(0)) == 0
''',
    "src/ledger_api/postings.py": '''"""Creating and reversing journal entries."""

from .models import Posting, balanced


def reverse(postings: list[Posting]) -> list[Posting]:
    """The entry that undoes ``postings``."""
    flipped = [Posting(p.account_id, -p.amount, p.reference + ":reversal") for p in postings]
    assert balanced(flipped)
    return flipped
''',
    "src/ledger_api/api.py": '''"""HTTP API."""

from fastapi import FastAPI

app = FastAPI(title="ledger-api")


@app.get("/health")
def health() -> dict[str, str]:
    return {"status": "ok"}
''',
    "src/ledger_api/reconcile.py": '"""Nightly reconciliation against the PSP settlement files."""\n\n\n'
                                   'def reconcile(day: str) -> int:\n    return 0\n',
    "src/ledger_api/events.py": '''"""Event store (RFC-012): postings as immutable, versioned events."""

from .settings import SNAPSHOT_EVERY


def needs_snapshot(events_since_snapshot: int) -> bool:
    return events_since_snapshot >= SNAPSHOT_EVERY
''',
    "src/ledger_api/checks.py": '"""Operational checks (see the on-call runbook)."""\n\nREQUIRED_INDEXES = '
                                '[("postings", ("account_id", "created_at"))]\n',
    "migrations/0007_postings_index.sql": "CREATE INDEX postings_account_created ON postings (account_id, created_at);\n",
    "tests/conftest.py": '"""Fixtures."""\n\nimport pytest\n\n\n@pytest.fixture\ndef account() -> str:\n'
                         '    return "acc-1"\n',
    "tests/test_models.py": 'from decimal import Decimal\n\nfrom ledger_api.models import Posting, balanced\n\n\n'
                            'def test_balanced() -> None:\n    assert balanced([Posting("a", Decimal(5), "r"), '
                            'Posting("b", Decimal(-5), "r")])\n',
    "tests/test_postings.py": 'from decimal import Decimal\n\nfrom ledger_api.models import Posting\n'
                              'from ledger_api.postings import reverse\n\n\ndef test_reversal() -> None:\n'
                              '    assert reverse([Posting("a", Decimal(1), "r"), Posting("b", Decimal(-1), "r")])'
                              '[0].amount == -1\n',
    "tests/test_events.py": 'from ledger_api.events import needs_snapshot\n\n\ndef test_snapshot() -> None:\n'
                            '    assert needs_snapshot(10_000)\n',
}


_CONSOLE_PKGS = [("eslint", "9.13.0"), ("prettier", "3.3.3"), ("typescript", "5.6.3"), ("vite", "5.4.10"),
                 ("vitest", "2.1.4")]
"""deploy-console's dev dependencies: package.json and pnpm-lock.yaml both list them."""
_DEV_DEPENDENCIES = ",\n".join(f'    "{name}": "^{version}"' for name, version in _CONSOLE_PKGS)


def console_config(canary: int = 5, half: int = 50, timeout: int = 30) -> str:
    """src/config.ts; scaled builds tune these numbers in extra commits."""
    return (f"export const CANARY_PERCENT = {canary};\nexport const HALF_PERCENT = {half};\n"
            f"export const HEALTH_TIMEOUT_S = {timeout};\n")


CONSOLE_FILES: dict[str, str] = {
    "package.json": f"""{{
  "name": "deploy-console",
  "version": "1.3.0",
  "private": true,
  "description": "{_CONSOLE['purpose'].capitalize()}",
  "type": "module",
  "packageManager": "pnpm@9.12.1",
  "scripts": {{
    "dev": "vite",
    "build": "tsc -p tsconfig.json && vite build",
    "test": "vitest run",
    "lint": "eslint .",
    "format": "prettier --write .",
    "deploy": "./{_CONSOLE['deploy']}"
  }},
  "devDependencies": {{
{_DEV_DEPENDENCIES}
  }}
}}
""",
    "pnpm-lock.yaml": "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\n"
                      "importers:\n\n  .:\n    devDependencies:\n" + "".join(
                          f"      {n}:\n        specifier: ^{v}\n        version: {v}\n"
                          for n, v in _CONSOLE_PKGS) + "\npackages:\n\n" + "".join(
                          f"  {n}@{v}:\n    resolution: {{integrity: sha512-{_sha(n + v)[:43]}=}}\n\n"
                          for n, v in _CONSOLE_PKGS),
    "tsconfig.json": '{\n  "compilerOptions": {\n    "target": "ES2022",\n    "module": "ESNext",\n'
                     '    "moduleResolution": "Bundler",\n    "strict": true,\n    "outDir": "dist"\n  },\n'
                     '  "include": ["src"]\n}\n',
    "eslint.config.js": 'import js from "@eslint/js";\n\nexport default [js.configs.recommended];\n',
    ".prettierrc": '{ "singleQuote": false, "printWidth": 100 }\n',
    "vitest.config.ts": 'import { defineConfig } from "vitest/config";\n\nexport default defineConfig({ test: '
                        '{ include: ["src/**/*.test.ts"] } });\n',
    ".gitignore": "node_modules/\ndist/\ncoverage/\n",
    "README.md": f"""# deploy-console

The {_CONSOLE['purpose']}: canary, half and full stages, one-click rollback, approvals.

## Development

```
pnpm install
{_CONSOLE['test']}
{_CONSOLE['lint']}
{_CONSOLE['build']}
```

Deploys run through `{_CONSOLE['deploy']} <service> <stage>`. Default branch: `{_CONSOLE['default_branch']}`.
""",
    "scripts/deploy.sh": """#!/usr/bin/env bash
# Deploy one service through one stage; the console calls this for every transition.
set -euo pipefail
service="$1"; stage="$2"
echo "deploying ${service} to ${stage}"
for attempt in 1 2 3; do
  if curl -fsS "https://${service}.internal.northwind-labs.example/healthz"; then exit 0; fi
  sleep $((attempt * 5))
done
echo "health check failed, rolling back" >&2
exit 1
""",
    ".github/workflows/ci.yml": _ci_workflow(_CONSOLE["default_branch"], "build", """\
      - uses: pnpm/action-setup@v4
      - uses: actions/setup-node@v4
        with: { node-version: 20, cache: pnpm }
""", ["pnpm install --frozen-lockfile", _CONSOLE["lint"], _CONSOLE["test"], _CONSOLE["build"]]),
    ".github/CODEOWNERS": "* @maya-okafor @tom-becker\n",
    "src/config.ts": console_config(),
    "src/stages.ts": 'export type Stage = "canary" | "half" | "full" | "rolled-back";\n\n'
                     'export function next(stage: Stage): Stage {\n  if (stage === "canary") return "half";\n'
                     '  if (stage === "half") return "full";\n  return stage;\n}\n\n'
                     'export function rollback(_stage: Stage): Stage {\n  return "rolled-back";\n}\n',
    "src/stages.test.ts": 'import { expect, test } from "vitest";\nimport { next, rollback } from "./stages";\n\n'
                          'test("canary to full", () => {\n  expect(next(next("canary"))).toBe("full");\n});\n\n'
                          'test("rollback from any stage", () => {\n  expect(rollback("half")).toBe("rolled-back");\n'
                          '});\n',
    "src/ui/rollout.ts": 'import { type Stage } from "../stages";\n\nexport function label(stage: Stage): string {\n'
                         '  return stage.replace("-", " ");\n}\n',
    "src/approvals.ts": 'export interface Approval {\n  service: string;\n  approver: string;\n}\n\n'
                        'export const needsApproval = (service: string): boolean => service === "ledger-api";\n',
}
