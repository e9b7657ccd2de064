"""The skip allow-list: a skip that hides a broken module fails the run; a documented absence does not."""

from __future__ import annotations

from pathlib import Path

import pytest


def _run(pytester: pytest.Pytester, body: str) -> pytest.RunResult:
    pytester.makepyfile(test_case=body)
    return pytester.runpytest("-p", "tests.skipguard", "-rs")


def test_skip_for_a_missing_project_module_fails_the_run(pytester: pytest.Pytester) -> None:
    result = _run(pytester, """
import pytest
def test_reader():
    pytest.skip("connector connectors.local.mbox is not installed")
""")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*UNEXPECTED SKIP test_case.py::test_reader: connector connectors.local.mbox*",
                                 "*1 unexpected skip(s)*"])


def test_module_level_importorskip_fails_the_run(pytester: pytest.Pytester) -> None:
    result = _run(pytester, """
import pytest
pytest.importorskip("a_module_that_is_not_there")
def test_never_runs():
    pass
""")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*UNEXPECTED SKIP test_case.py: could not import 'a_module_that_is_not_there'*"])


def test_xfail_counts_as_an_unexpected_skip(pytester: pytest.Pytester) -> None:
    result = _run(pytester, """
import pytest
@pytest.mark.xfail(reason="known broken")
def test_broken():
    assert False
""")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*UNEXPECTED SKIP test_case.py::test_broken: xfail: known broken*"])


def test_documented_absence_passes_and_is_printed(pytester: pytest.Pytester, tmp_path: Path) -> None:
    missing = tmp_path / "no-such-realdata"
    result = _run(pytester, f"""
import pytest
def test_uses_corpus():
    pytest.skip("real data folder {missing} is absent")
def test_other():
    assert 1 + 1 == 2
""")
    assert result.ret == pytest.ExitCode.OK
    result.assert_outcomes(passed=1, skipped=1)
    result.stdout.fnmatch_lines([f"SKIPPED*real data folder {missing} is absent"])
    assert "UNEXPECTED" not in result.stdout.str()


def test_documented_reason_while_the_thing_is_present_fails(pytester: pytest.Pytester, tmp_path: Path) -> None:
    """The allow-listed words cannot be borrowed: the folder named in the reason exists here."""
    result = _run(pytester, f"""
import pytest
def test_uses_corpus():
    pytest.skip("real data folder {tmp_path} is absent")
""")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*UNEXPECTED SKIP*(but the shared real-data folder is present)*"])


def test_a_real_failure_keeps_its_own_exit_code(pytester: pytest.Pytester) -> None:
    result = _run(pytester, """
import pytest
def test_fails():
    assert 1 == 2
def test_skips():
    pytest.skip("nothing documented")
""")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.assert_outcomes(failed=1, skipped=1)


def test_a_documented_reason_given_in_an_except_block_fails(pytester: pytest.Pytester, tmp_path: Path) -> None:
    """The real-data folder really is absent here, but the skip was raised while handling the
    ImportError of a (broken) project module: that is a failure dressed as an absence."""
    missing = tmp_path / "no-such-realdata"
    result = _run(pytester, f"""
import pytest
@pytest.fixture
def reader():
    try:
        import connectors_that_do_not_import  # noqa: F401
    except ImportError:
        pytest.skip("real data folder {missing} is absent")
def test_reads(reader):
    pass
def test_absent_by_if():
    pytest.skip("real data folder {missing} is absent")
""")
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*UNEXPECTED SKIP test_case.py::test_reads: skipped while handling "
                                 "ModuleNotFoundError(No module named 'connectors_that_do_not_import')*",
                                 "*1 unexpected skip(s)*"])


def test_a_real_data_folder_whose_path_has_spaces_is_recognised(pytester: pytest.Pytester, tmp_path: Path) -> None:
    """A clone under "/home/Ada Lovelace/..." must not turn the documented absence into a failure."""
    missing = tmp_path / "My Projects" / "shared" / "realdata"
    result = _run(pytester, f"""
import pytest
def test_uses_corpus():
    pytest.skip("real data folder {missing} is absent")
""")
    assert result.ret == pytest.ExitCode.OK, result.stdout.str()
