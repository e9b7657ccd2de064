"""The scan summary's skip lines: grouped by kind of reason, identifiers intact, no mid-word cuts."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from bootstrap_app.cli import main
from bootstrap_app.report.scan import ScanResult, SourceReport, format_summary, shorten, skip_categories
from bootstrap_app.types import Skip

SLACK = "slack:/data/export"
MBOX = "mbox:/data/mail/inbox.mbox"


def _summary(reports: list[SourceReport]) -> str:
    return format_summary(ScanResult(run_id=7, reports=reports).summary())


def test_identifiers_are_not_mangled_and_nothing_is_cut_mid_word() -> None:
    ghost = Skip(SLACK, "users.json", "/data/export: 1 user id(s) not in users.json "
                                      "(3 messages kept with the bare id): U09GHOST1, U0ABC22")
    spam = Skip("takeout:/data/t", "labels:Spam/Trash",
                "/data/t/Takeout/Mail/All mail Including Spam and Trash.mbox: 12 messages in Spam or Trash left out")
    text = _summary([SourceReport(SLACK, "slack", items=10, skipped=[ghost]),
                     SourceReport("takeout:/data/t", "takeout", items=5, skipped=[spam])])
    assert "U09GHOST1" in text and "UNGHOST" not in text
    assert "12 messages in Spam or Trash left out" in text
    assert "Tras " not in text and "Tras (" not in text
    assert "(e.g. labels:Spam/Trash)" in text


def test_same_kind_of_skip_counts_together_with_three_examples() -> None:
    skips = [Skip(MBOX, f"@{off}", f"/data/mail/inbox.mbox: message at byte {off} unreadable (bad header {i})")
             for i, off in enumerate((120, 4410, 9081, 20_000, 31_337))]
    skips.append(Skip(MBOX, "labels:Spam/Trash", "/data/mail/inbox.mbox: 4 messages in Spam or Trash left out"))
    cats = skip_categories(skips, MBOX)
    assert [c["count"] for c in cats] == [5, 1]
    assert cats[0]["examples"] == ["@120", "@4410", "@9081"]
    assert cats[0]["category"] == "message at byte N unreadable"
    text = _summary([SourceReport(MBOX, "mbox", items=100, skipped=skips)])
    assert "5 x message at byte N unreadable  (e.g. @120, @4410, @9081)" in text
    assert "6 skipped" in text


def test_shorten_cuts_at_a_word_boundary() -> None:
    long = "calendar does not parse as a whole (Expected a property name at line 12); events read one by one"
    cut = shorten(long, 40)
    assert cut.endswith("…") and len(cut) <= 40
    assert long.startswith(cut[:-1]) and long[len(cut) - 1] == " "
    assert shorten("short enough", 40) == "short enough"


def test_demo_scan_stderr_reads_well(tmp_path: Path) -> None:
    env = {"MEMSEED_HOME": str(tmp_path / "home"), "HOME": str(tmp_path)}
    res = CliRunner().invoke(main, ["scan", "--demo", "-q"], env=env)
    assert res.exit_code == 0, res.output
    err = res.stderr
    assert "U09GHOST1" in err and "UNGHOST" not in err
    assert "messages in Spam or Trash left out" in err
    assert "(e.g. users.json)" in err and "(e.g. labels:Spam/Trash)" in err


def test_errors_name_the_source_once(tmp_path) -> None:
    """``memseed scan gmail:`` printed ``gmail:: gmail:: no such file or folder``."""
    from click.testing import CliRunner

    from bootstrap_app.cli import main
    from bootstrap_app.report.scan import name_once

    assert name_once("folder:/x/y", "/x/y: cannot list folder\n  hint: h") == "/x/y: cannot list folder"
    assert name_once("mbox:/a.mbox", "broken") == "mbox:/a.mbox: broken"
    for location, said in (("nosuch:", "neither a path nor a source kind"), (str(tmp_path / "gone.mbox"), "no such file")):
        out = CliRunner().invoke(main, ["scan", location], env={"HOME": str(tmp_path)})
        text = out.output
        assert out.exit_code != 0 and said in text
        assert f"{location}: {location}" not in text and f"{location}:: " not in text, text
        assert "hint:" in text
