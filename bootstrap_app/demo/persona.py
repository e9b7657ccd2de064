"""The bundled demo persona: who she is, as plain facts the generator writes into data.

Nobody real: every name, address and domain here is invented (``.example`` domains are
reserved by RFC 2606). Tests assert that a scan of the generated data recovers these facts,
so the generator and the extractor can never drift apart silently.
"""

from __future__ import annotations

__all__ = ["PERSONA"]

PERSONA: dict = {
    "name": "Maya Okafor",
    "work_email": "maya.okafor@northwind-labs.example",
    "personal_email": "maya.okafor@fastmail.example",
    "employer": "Northwind Labs",
    "title": "Staff Software Engineer",
    "team": "Platform Infrastructure",
    "timezone": "Europe/Berlin",
    "working_hours": ("09:00", "17:30"),
    "slack_workspace": "northwind",
    "slack_user_id": "U01MAYA",
    "manager": {"name": "Daniel Reyes", "email": "daniel.reyes@northwind-labs.example"},
    "collaborators": [
        {"name": "Priya Raman", "email": "priya.raman@northwind-labs.example"},
        {"name": "Tom Becker", "email": "tom.becker@northwind-labs.example"},
    ],
    "rituals": [
        {"summary": "Platform standup", "rrule": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "time": "09:30",
         "minutes": 15},
        {"summary": "1:1 Maya / Daniel", "rrule": "FREQ=WEEKLY;BYDAY=TH", "time": "10:00", "minutes": 30},
        {"summary": "Sprint planning", "rrule": "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO", "time": "14:00",
         "minutes": 60},
    ],
    "repos": [
        {"name": "ledger-api", "language": "Python", "package_manager": "uv",
         "test": "uv run pytest", "lint": "uv run ruff check .", "format": "uv run ruff format .",
         "default_branch": "main", "ci": "GitHub Actions", "commit_convention": "Conventional Commits",
         "purpose": "double-entry ledger service for Northwind payments"},
        {"name": "deploy-console", "language": "TypeScript", "package_manager": "pnpm",
         "test": "pnpm test", "lint": "pnpm lint", "build": "pnpm build", "format": "pnpm format",
         "default_branch": "trunk", "ci": "GitHub Actions", "deploy": "scripts/deploy.sh",
         "purpose": "internal web console for staged deploys"},
    ],
    "documents": [
        {"title": "Ledger API on-call runbook", "file": "runbooks/ledger-api-oncall.md", "kind": "runbook"},
        {"title": "RFC-012: Event sourcing for the ledger", "file": "rfcs/rfc-012-event-sourcing.docx",
         "kind": "rfc"},
        {"title": "Deploy console design", "file": "design/deploy-console-design.pdf", "kind": "design"},
    ],
    "active_channels": ["platform", "ledger-dev"],
    "quiet_channels": ["random"],
}
