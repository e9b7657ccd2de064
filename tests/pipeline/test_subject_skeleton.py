"""Templated-subject skeletons are the same with the slot pre-checks as without them.

Why: :func:`~bootstrap_app.signals.automated.subject_skeleton` runs on every received subject
of a mailbox; it now rewrites a slot only when the subject holds what every match of it holds
(``@``, ``://``, a digit). The plain rewrite (all four slots, always) is kept here and run beside
it on real subjects (the Enron and notmuch corpora, clean skip when absent) and awkward ones.
"""

from __future__ import annotations

import mailbox
import random
import re
from collections.abc import Iterator

from bootstrap_app.signals.automated import _PREFIX, subject_skeleton
from tests.conftest import realdata_file

_PLAIN_SLOTS = (
    (re.compile(r"\S+@\S+"), "<address>"),
    (re.compile(r"https?://\S+"), "<url>"),
    (re.compile(r"\b[0-9a-f]{8,}\b", re.I), "<id>"),
    (re.compile(r"\S*\d\S*"), "<n>"),
)


def _plain(subject: str) -> tuple[str, bool]:
    text = _PREFIX.sub("", subject or "").strip().lower()
    slotted = False
    for pattern, token in _PLAIN_SLOTS:
        text, n = pattern.subn(token, text)
        slotted = slotted or n > 0
    return " ".join(text.split()), slotted


_PIECES = ("Re:", "FW:", "Ticket", "#4411", "updated", "a@b.example", "mailto:x@y", "https://x.example/a?b=1",
           "http:/x", "deadbeef", "DEADBEEF01", "cafe", "٣", "v2.3", "Q4", "2026-03-02", "notes", "¹²",
           "id:0x1f", "", " ", "\t", "Approval is overdue:", "@", "://", "١٢٣")


def _awkward(n: int = 5000) -> Iterator[str]:
    rng = random.Random(23)
    for _ in range(n):
        yield rng.choice(("", " ", "  ")).join(rng.choices(_PIECES, k=rng.randint(0, 6)))


def _real() -> Iterator[str]:
    for parts in (("email", "enron", "enron-kaminski-v-inbox.mbox"), ("email", "enron", "enron-germany-c-inbox.mbox"),
                  ("email", "notmuch", "notmuch-list-2009-default-corpus.mbox")):
        for message in mailbox.mbox(realdata_file(*parts)):
            yield str(message.get("Subject", ""))


def test_skeleton_equals_the_plain_rewrite_on_awkward_subjects() -> None:
    slotted = 0
    for subject in _awkward():
        assert subject_skeleton(subject) == _plain(subject), subject
        slotted += _plain(subject)[1]
    assert slotted > 1000  # the generated subjects reach every slot, not just the skips


def test_skeleton_equals_the_plain_rewrite_on_real_subjects() -> None:
    subjects = list(_real())
    for subject in subjects:
        assert subject_skeleton(subject) == _plain(subject), subject
    assert len(subjects) > 500 and sum(_plain(s)[1] for s in subjects) > 50


def test_a_remembered_skeleton_equals_the_plain_rewrite() -> None:
    """The memo answers repeats (a thread, a weekly report) as the rewrite does, past its size too."""
    subject_skeleton.cache_clear()
    subjects = list(_awkward(12_000))  # more distinct subjects than the memo keeps: hits, misses, evictions
    for subject in subjects + subjects[::-1]:
        assert subject_skeleton(subject) == _plain(subject), subject
    info = subject_skeleton.cache_info()
    assert info.hits > 1000 and info.currsize == info.maxsize
