"""Secret redaction (each kind, prose passwords, no temp files) and PII flags; the texts that must
raise no secret are checked with every other rule in test_gate.py (``ORDINARY_TEXT``)."""

from __future__ import annotations

import json
import tempfile

import pytest

from bootstrap_app.safety.pii import pii_flags, pii_kinds
from bootstrap_app.text.secrets import find_secrets, redact_secrets
from tests.conftest import realdata_file

# Values are assembled at run time so the source file itself holds no scannable token.
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq3Qx\nZm9vYmFy\n-----END RSA PRIVATE KEY-----"
PLANTED: dict[str, tuple[str, str]] = {
    # kind -> (text, the secret value that must disappear)
    "aws-key": ("aws id AKIA" + "IOSFODNN7EXAMPLE here", "AKIA" + "IOSFODNN7EXAMPLE"),
    "aws-secret": ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY",
                   "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"),
    "gcp-private-key-id": ('{"private_key_id": "' + "0123456789abcdef" * 2 + '01234567", "x": 1}',
                           "0123456789abcdef" * 2 + "01234567"),
    "private-key": ('{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQ\\n'
                    '-----END PRIVATE KEY-----\\n"}', "MIIEvQIBADANBgkqhkiG9w0BAQ"),
    "azure-storage-key": ("DefaultEndpointsProtocol=https;AccountName=a;AccountKey="
                          + "Ab3dEf6hIj9kLmN0pQrStUvWxYz1234567890abcd" * 2 + "EF==;",
                          "Ab3dEf6hIj9kLmN0pQrStUvWxYz1234567890abcd"),
    "github-token": ("use ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
    "slack-token": ("xoxb-" + "123456789012-1234567890123-AbCdEfGhIjKlMnOp", "AbCdEfGhIjKlMnOp"),
    "openai-key": ("OPENAI sk-proj-" + "Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56", "Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56"),
    "anthropic-key": ("key sk-ant-" + "api03-Ab12Cd34Ef56Gh78Ij90Kl12Mn34", "api03-Ab12Cd34Ef56Gh78Ij90Kl12Mn34"),
    "google-api-key": ("maps AIza" + "SyA1234567890abcdefghijklmnopqrstuv", "SyA1234567890abcdefghijklmnopqrstuv"),
    "google-oauth-token": ("Authorization ya29." + "a0AfH6SMBx1234567890abcdefghij", "a0AfH6SMBx1234567890abcdefghij"),
    "google-refresh-token": ("refresh 1//0" + "gAbCdEfGhIjKlMnOpQrStUvWxYz012345", "gAbCdEfGhIjKlMnOpQrStUvWxYz012345"),
    "jwt": ("eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"),
    "stripe-key": ("stripe sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWDarjtT1zdp7dc"),
    "npm-token": ("//registry.npmjs.org/:_authToken=npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
                  "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
    "pypi-token": ("pypi-AgEIcHlwaS5vcmc" + "CJGQ3YzU0ZjI3LTk3ZDYtNGE5NS1hYjZlLWEzNzE5NmY4MmY0MQ",
                   "CJGQ3YzU0ZjI3LTk3ZDYtNGE5NS1hYjZlLWEzNzE5NmY4MmY0MQ"),
    "pem": (PEM, "MIIEpAIBAAKCAQEA7bq3Qx"),
    "password-assignment": ("DB_PASSWORD=Sup3rS3cret!x", "Sup3rS3cret!x"),
    "password-prose": ("fyi the password is hunter22 for staging", "hunter22"),
    "password-pw": ("pw: tr0ub4dor&3", "tr0ub4dor&3"),
    "connection-string": ("DATABASE_URL=postgres://app:s3cretpass@db.internal:5432/ledger", "s3cretpass"),
    "bearer": ("Authorization: Bearer abcdef0123456789abcdef0123", "abcdef0123456789abcdef0123"),
    "high-entropy": ("use key Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg for staging",
                     "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg"),
}


@pytest.mark.parametrize("kind", sorted(PLANTED))
def test_each_secret_kind_is_redacted(kind: str) -> None:
    text, value = PLANTED[kind]
    redacted = redact_secrets(text)
    assert value not in redacted
    assert "[REDACTED:" in redacted
    assert find_secrets(redacted) == []  # redaction is a fixed point: the gate finds nothing left


def test_placeholders_are_typed() -> None:
    assert redact_secrets("AKIA" + "IOSFODNN7EXAMPLE") == "[REDACTED:aws-key]"
    assert "[REDACTED:password]" in redact_secrets("the password is hunter22")
    assert redact_secrets("postgres://app:s3cretpass@db:5432/x") == "postgres://app:[REDACTED:connection-string]@db:5432/x"


def test_detect_secrets_runs_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_a: object, **_k: object) -> None:
        raise AssertionError("secret scanning must not write a temp file")

    for name in ("mkstemp", "NamedTemporaryFile", "TemporaryFile", "mkdtemp"):
        monkeypatch.setattr(tempfile, name, refuse)
    assert "[REDACTED" in redact_secrets('password = "Zx81!kQ0pLm2"\nuse key Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFi')


def test_clean_bipia_emails_have_no_secrets() -> None:
    path = realdata_file("injection", "bipia", "email", "test.jsonl")
    rows = [json.loads(line)["context"] for f in (path, path.with_name("train.jsonl")) for line in f.open()]
    assert len(rows) == 100
    assert [r[:60] for r in rows if find_secrets(r)] == []


# -- PII -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,kind", [
    ("call me on +1 415 555 0134 after six", "phone"),
    ("mobile 020 7946 0958", "phone"),
    ("I moved to 221 Baker Street last year", "address"),
    ("Wohnung in der Hauptstraße 5", "address"),
    ("home address on file", "address"),
    ("was diagnosed with diabetes in May", "health"),
    ("on sick leave until Monday", "health"),
    ("my salary goes up in April", "finance"),
    ("transfer to GB82 WEST 1234 5698 7654 32", "finance"),
    ("card 4111 1111 1111 1111 exp 09/29", "finance"),
    ("my daughter starts school", "family"),
    ("going through a divorce", "family"),
    ("SSN 123-45-6789", "government-id"),
    ("passport number X1234567", "government-id"),
])
def test_pii_kinds(text: str, kind: str) -> None:
    assert kind in pii_kinds(text)
    assert {"sensitive", f"sensitive:{kind}"} <= pii_flags(text)


@pytest.mark.parametrize("text", [
    "Maya prefers Conventional Commits",
    "fork a child process and wait",
    "Q3 1st review at 10:00 in room 4",
    "build 20240501 took 3 files in the way",
    "SSN 666-45-6789 is not a valid number",
    "card 4111 1111 1111 1112 fails Luhn",
    "ref GB00 WEST 1234 5698 7654 32 with a bad checksum",
    "commit 5c98eef on 2024-05-01",
    "run the test suite 5 times",
])
def test_pii_near_misses(text: str) -> None:
    assert pii_flags(text) == set()


def test_a_code_fence_after_a_colon_is_no_password() -> None:
    """"…make sure they pass:" over a ``` block: the fence is not a value (redacting it flipped the
    fence parity of a contributor guide and cost every rule below it); a backticked value still is."""
    guide = "Run the tests and make sure they pass:\n```bash\nmelos run test\n```\nNever push to main.\n"
    assert find_secrets(guide) == [] and redact_secrets(guide) == guide
    assert "hunter22abc" not in redact_secrets("password: `hunter22abc`")
