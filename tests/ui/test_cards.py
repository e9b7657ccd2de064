"""Review cards: memseed's own markdown renders, anything else stays literal; every flag explained."""

from __future__ import annotations

from bootstrap_app.review.cards import FLAG_LEGEND, card_markdown, flag_notes
from bootstrap_app.types import MemoryType, Proposal


def test_bold_code_and_bullets_render_links_images_and_html_do_not() -> None:
    body = ("Keep pull requests small.\n**Why:** reviews stalled.\n**How to apply:** run `make test` first.\n"
            "- Tests: `pytest -q` (Makefile)\n- see ![x](http://t.example/p.png) <b>hi</b> [a](http://e.example)")
    out = card_markdown(body)
    assert "**Why:**" not in out.replace("**Why\\:**", "")  # the colon is escaped inside, the bold kept
    assert "**Why\\:**" in out and "**How to apply\\:**" in out
    assert "`make test`" in out and "- Tests\\: `pytest -q`" in out
    assert "![" not in out and "](" not in out and "<b>" not in out
    assert "\\!\\[x\\]" in out and "\\<b\\>" in out
    assert "\n\n- Tests" in out, "a blank line before the list, or markdown runs it into the paragraph"


def test_a_code_span_cannot_carry_a_link() -> None:
    out = card_markdown("`[a](http://e.example)` and **[b](http://f.example)**")
    assert out.startswith("`[a](http://e.example)`")  # shown literally inside code
    assert "**\\[b\\]\\(http\\:" in out


def test_every_flag_has_a_legend_and_unverified_path_names_its_line() -> None:
    body = ("app.\n- Stack: Python\n- Build: `cargo build --release` (release.yml)\n"
            "- Test: `pytest` (runs in CI)\n- Lint: `make lint` → `ruff check` (Makefile)")
    p = Proposal(type=MemoryType.PROJECT, name="app-commands", description="d", body=body, subject="s",
                 flags=("unverified-path", "sensitive", "something-new"))
    notes = {n.flag: n for n in flag_notes(p)}
    assert notes["unverified-path"].lines == ("- Build: `cargo build --release` (release.yml)",)
    assert notes["sensitive"].meaning == FLAG_LEGEND["sensitive"] and notes["sensitive"].lines == ()
    assert notes["something-new"].meaning  # an unknown flag still gets a note
