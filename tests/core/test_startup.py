"""The CLI starts without the heavy libraries only some commands or file formats need.

Why: cron runs ``memseed reseed`` and people type ``memseed --help``; every library imported at
the top of a module the CLI loads is paid on each start (see ``benchmarks/bench_startup.py``
for the figures). These are imported where they are used instead; this test keeps a new
top-level import of one of them from slipping back in. No timing is asserted, only which
modules a fresh interpreter has loaded.
"""

from __future__ import annotations

import json
import subprocess
import sys

# library -> what needs it (and imports it inside the function that does)
DEFERRED = {
    "bs4": "HTML bodies and pages (connectors/local/htmltext.py)",
    "charset_normalizer": "mislabelled mail charsets (connectors/local/charsets.py)",
    "docx": "the demo's .docx file and .docx reads",
    "googleapiclient": "Google sources",
    "keyring": "stored logins (connectors/tokenstore.py)",
    "msal": "Microsoft sign-in",
    "openai": "the LLM pass",
    "pandas": "nothing at start-up",
    "phonenumbers": "phone-number redaction and PII flags on digit-rich text",
    "pypdf": ".pdf reads",
    "recurring_ical_events": ".ics expansion (connectors/local/ics.py)",
    "streamlit": "memseed app",
}


def test_cli_import_leaves_heavy_libraries_for_the_commands_that_use_them() -> None:
    code = ("import json, sys; import bootstrap_app.cli; "
            f"print(json.dumps(sorted(m for m in {sorted(DEFERRED)!r} if m in sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert loaded == [], {name: DEFERRED[name] for name in loaded}


def test_the_check_sees_a_loaded_library() -> None:
    """The probe itself works: a library the CLI does load (click) is reported."""
    code = "import json, sys; import bootstrap_app.cli; print(json.dumps('click' in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(done.stdout.strip().splitlines()[-1]) is True
