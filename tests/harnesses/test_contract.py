"""The harness contract, run the same way over every registered harness and the shipped fake.

The matrix is every class in ``HARNESS_CLASSES``, the in-memory ``FakeHarness``, and the toy
harness of ``docs/extending.md`` ("Add a harness"), loaded from the doc itself so the worked
example cannot rot.

Each harness must: declare its name, label and home; plan without writing; apply so that its
own reader gives back the same entries with the same types; change nothing on a second
write; undo byte for byte; leave every file as it was when a write fails half way; replace a
superseded entry in place (and undo that too); answer the capacity question; and have its
doctor pass what it wrote and flag a file it cannot read; never overwrite the person's edit of
an entry an update supersedes; and delete (never rewrite) an entry an approved removal names,
journaled and undone byte for byte, unless the person edited it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from bootstrap_app.errors import WriteError
from bootstrap_app.harnesses import HARNESS_CLASSES, Harness, WriteOptions, harness_class, labels
from bootstrap_app.harnesses import files as harness_files
from bootstrap_app.harnesses.fake import FakeHarness
from bootstrap_app.harnesses.files import MemoryFiles
from bootstrap_app.store import Store
from bootstrap_app.types import Evidence, MemoryType, Proposal
from tests.doc_examples import load_example

from .conftest import DERIVED, make_proposals

NAMES = [cls.name for cls in HARNESS_CLASSES] + ["fake", "toy-from-docs"]


def doc_harness() -> type[Harness]:
    """``ToyHarness`` from the ``## Add a harness`` section of docs/extending.md, executed as a module."""
    cls = load_example("Add a harness").ToyHarness
    assert isinstance(cls, type) and issubclass(cls, Harness)
    return cls


@dataclass
class Case:
    """One harness set up in a temp home: the harness, where it writes, and how to see its bytes."""

    harness: Harness
    root: Path
    project: Path

    def options(self, store: Store | None = None, **extra: object) -> WriteOptions:
        kw: dict[str, object] = {"root": self.root, "project": self.project}
        if store is not None:
            kw.update(written=frozenset(store.written(self.harness.name)), last_after=store.last_after)
        kw.update(extra)
        return WriteOptions(**kw)  # type: ignore[arg-type]

    def edit(self, old: bytes, new: bytes) -> int:
        """Replace ``old`` by ``new`` in every file holding it, as the person would in an editor; returns how many."""
        data = (self.harness.files.data if isinstance(self.harness.files, MemoryFiles)
                else {p: p.read_bytes() for p in self.root.rglob("*") if p.is_file() and not p.name.endswith(".lock")})
        changed = 0
        for path, raw in list(data.items()):
            if old in raw:
                _overwrite(self, path, raw.replace(old, new))
                changed += 1
        return changed

    def snapshot(self) -> dict[str, str]:
        """path -> sha256 of every file the harness holds (disk under ``root``, or the fake's dict)."""
        if isinstance(self.harness.files, MemoryFiles):
            return {str(p): hashlib.sha256(b).hexdigest() for p, b in self.harness.files.data.items()}
        if not self.root.exists():
            return {}
        return {str(p): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(self.root.rglob("*")) if p.is_file() and not p.name.endswith(".lock")}


@pytest.fixture(params=NAMES)
def case(request: pytest.FixtureRequest, home: Path, project: Path) -> Case:
    name = request.param
    if name == "fake":
        return Case(FakeHarness(), home / "fake-not-on-disk", project)
    if name == "toy-from-docs":
        return Case(doc_harness()(), home / "toy-home", project)
    return Case(harness_class(name)(), home / f"{name}-home", project)


def _write(case: Case, store: Store, entries: list[Proposal], **extra: object) -> int:
    plan = case.harness.plan(entries, case.options(store, **extra))
    outcome = case.harness.apply(plan, store)
    assert outcome.write_id is not None, plan.notes
    return outcome.write_id


def _norm(text: str) -> str:
    return " ".join(text.replace("**", "").split()).lower()


def _found(case: Case, p: Proposal) -> bool:
    return any(e.memory_type is p.type and _norm(p.description).rstrip(".")[:40] in _norm(f"{e.description} {e.body}")
               for e in case.harness.read(case.root))


def test_declares_what_the_app_and_cli_show(case: Case, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cls = type(case.harness)
    assert cls.name and cls.label and cls.entry_format
    if cls in HARNESS_CLASSES:
        assert labels()[cls.name] == cls.label and harness_class(cls.name.upper()) is cls
        for alias in cls.aliases:
            assert harness_class(alias) is cls
    for var in cls.home_env:
        monkeypatch.delenv(var, raising=False)
    if cls.default_home:
        assert cls.home() == home / cls.default_home
        for var in cls.home_env:
            monkeypatch.setenv(var, str(home / f"moved-by-{var}"))
            assert cls.home() == home / f"moved-by-{var}"
            monkeypatch.delenv(var)


def test_round_trip_then_nothing_to_do(case: Case, store: Store) -> None:
    proposals = make_proposals()
    before = case.snapshot()
    plan = case.harness.plan(proposals, case.options(store))
    assert plan.files and not plan.empty and plan.diff()
    assert case.snapshot() == before, "plan must not write"
    store.save_proposals(store.start_run("scan", []), proposals)
    _write(case, store, proposals)
    for p in proposals:
        assert _found(case, p), (p.type, p.description, [(e.memory_type, e.body[:60]) for e in case.harness.read(case.root)])
    assert sorted(store.written(case.harness.name)) == sorted(p.fingerprint for p in proposals)
    again = case.harness.plan(proposals, case.options(store))
    assert again.empty and again.entries == [], again.diff()


SINGLE_HOME = [cls.name for cls in HARNESS_CLASSES if "find_local" not in vars(cls)]
"""Harnesses that find their memory by counting the files of one home (:meth:`Harness.memory_count`)."""


@pytest.mark.parametrize("name", SINGLE_HOME)
def test_what_it_wrote_is_found_on_this_machine(name: str, home: Path, project: Path, store: Store,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a single-home harness holds memory it offers it as a source (the app's Sources page
    lists it as ``name:``); an empty home offers nothing."""
    case = Case(harness_class(name)(), home / f"{name}-home", project)
    cls = type(case.harness)
    monkeypatch.setattr(cls, "home", classmethod(lambda _cls: case.root))
    case.root.mkdir(parents=True, exist_ok=True)
    assert case.harness.find_local() == []  # an empty home offers nothing
    proposals = make_proposals()
    store.save_proposals(store.start_run("scan", []), proposals)
    _write(case, store, proposals)
    found = case.harness.find_local()
    if not cls.default_home and not cls.home_env:
        assert found == []  # a harness with no home of its own is given a folder, never found
        return
    assert [(f.harness, f.path, f.location) for f in found] == [(cls.name, case.root, f"{cls.name}:")]
    assert found[0].entries >= 1


def test_undo_restores_every_byte(case: Case, store: Store) -> None:
    first, *rest = make_proposals()
    _write(case, store, [first])
    after_first = case.snapshot()
    assert after_first
    second = _write(case, store, [first, *rest])
    assert case.snapshot() != after_first
    case.harness.undo(store, second)
    assert case.snapshot() == after_first
    case.harness.undo(store)  # the latest applied write: the first one
    assert case.snapshot() == {}


def test_failed_write_leaves_every_file_as_it_was(case: Case, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    first, *rest = make_proposals()
    _write(case, store, [first])
    before = case.snapshot()
    plan = case.harness.plan([first, *rest], case.options(store))
    last = plan.files[-1].path
    if isinstance(case.harness.files, MemoryFiles):
        case.harness.files.fail_on.add(last)
    else:
        real = harness_files.atomic_write

        def failing(path: Path, data: bytes, *, create_new: bool = False) -> None:
            if path == last and data == plan.files[-1].after:
                raise OSError(28, "No space left on device")
            real(path, data, create_new=create_new)

        monkeypatch.setattr(harness_files, "atomic_write", failing)
    with pytest.raises(WriteError):
        case.harness.apply(plan, store)
    assert case.snapshot() == before
    assert store.writes(1)[0].status == "failed"


def _update(old: Proposal) -> Proposal:
    """The same fact, changed: newer evidence says the project moved from make to pnpm."""
    ev = (Evidence("git:/code/ledger-api", "abc123", DERIVED.replace(month=12), True, "switch to pnpm"),)
    return replace(old, body=old.body.replace("`make test`", "`pnpm test`"),
                   description=old.description.replace("Postgres", "Postgres; commands via pnpm"),
                   key=old.key + "+pnpm", evidence=ev, supersedes=old.name, derived_at=DERIVED.replace(month=12))


def _written(case: Case, store: Store) -> tuple[list[Proposal], Proposal, int, dict[str, str]]:
    """The proposals written, then what a later change starts from: the project entry it changes,
    how many entries read back, and the files' hashes (undo must bring exactly these back)."""
    proposals = make_proposals()
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    _write(case, store, proposals)
    return proposals, old, len(case.harness.read(case.root)), case.snapshot()


def test_superseded_entry_is_replaced_in_place_and_undo_brings_it_back(case: Case, store: Store) -> None:
    proposals, old, count, before = _written(case, store)
    new = _update(old)
    assert new.fingerprint != old.fingerprint
    others = [p for p in proposals if p is not old]
    plan = case.harness.plan([*others, new], case.options(store, replaces={new.fingerprint: old}))
    assert [s.old_fingerprint for s in plan.superseded] == [old.fingerprint]
    assert plan.superseded[0].until == "2026-12-02"
    write_id = case.harness.apply(plan, store).write_id
    entries = case.harness.read(case.root)
    text = " ".join(_norm(f"{e.description} {e.body}") for e in entries)
    assert "pnpm" in text and "`make test`" not in text
    assert len(entries) == count, "the new entry takes the old one's place"
    [row] = store.superseded(case.harness.name)
    assert row["old_fingerprint"] == old.fingerprint and row["until"] == "2026-12-02"
    assert "make test" in row["old_text"]
    case.harness.undo(store, write_id)
    assert case.snapshot() == before
    assert store.superseded(case.harness.name) == []


def test_an_update_never_overwrites_the_persons_edit_of_the_old_entry(case: Case, store: Store) -> None:
    """The person reworded the old entry in the harness's own file: the update goes in beside it
    (no supersession is journaled) and their words survive the write."""
    proposals = make_proposals()
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    _write(case, store, proposals)
    assert case.edit(b"Deploys go through", b"Deploys (Fridays only) go through") >= 1
    new = _update(old)
    plan = case.harness.plan([*(p for p in proposals if p is not old), new],
                             case.options(store, replaces={new.fingerprint: old}))
    assert plan.superseded == [] and [p.fingerprint for p in plan.entries] == [new.fingerprint]
    case.harness.apply(plan, store)
    text = " ".join(_norm(f"{e.description} {e.body}") for e in case.harness.read(case.root))
    assert "deploys (fridays only) go through" in text and "pnpm test" in text


def _removal(old: Proposal) -> Proposal:
    """What ``extract.verify`` proposes when nothing an entry names holds any more (flags stale + remove)."""
    ev = (Evidence("memseed:verify", "/code/ledger-api", DERIVED.replace(month=11), True, "verified: 1 missing"),)
    return replace(old, body="No longer holds (checked 2026-11-02): `/code/ledger-api`.",
                   description="Remove: " + old.description, key=old.key + " | stale", evidence=ev,
                   flags=("stale", "remove"), supersedes=old.name, supersedes_fingerprint=old.fingerprint,
                   derived_at=DERIVED.replace(month=11))


def test_an_approved_removal_deletes_the_entry_and_undo_brings_it_back(case: Case, store: Store) -> None:
    proposals, old, count, before = _written(case, store)
    gone = _removal(old)
    others = [p for p in proposals if p is not old]
    plan = case.harness.plan([*others, gone], case.options(store, replaces={gone.fingerprint: old}))
    assert [(s.old_fingerprint, s.new_fingerprint) for s in plan.superseded] == [(old.fingerprint, gone.fingerprint)]
    assert plan.superseded[0].until == "2026-11-02"
    assert plan.entries == [] and gone.fingerprint not in {fp for fp, _ in plan.written}
    write_id = case.harness.apply(plan, store).write_id
    entries = case.harness.read(case.root)
    text = " ".join(_norm(f"{e.name} {e.description} {e.body}") for e in entries)
    assert len(entries) == count - 1, [e.name for e in entries]
    assert "make test" not in text and "no longer holds" not in text and "remove:" not in text
    assert all(_found(case, p) for p in others)
    [row] = store.superseded(case.harness.name)
    assert (row["old_fingerprint"], row["new_fingerprint"]) == (old.fingerprint, gone.fingerprint)
    assert "make test" in row["old_text"] and row["until"] == "2026-11-02"
    again = case.harness.plan(others, case.options(store))
    assert again.empty, again.diff()
    case.harness.undo(store, write_id)
    assert case.snapshot() == before
    assert store.superseded(case.harness.name) == []


def test_a_removal_never_deletes_the_persons_edit_of_the_entry(case: Case, store: Store) -> None:
    """The person reworded the entry: a removal keeps it, writes no note, and says so in the plan."""
    proposals = make_proposals()
    old = next(p for p in proposals if p.type is MemoryType.PROJECT)
    _write(case, store, proposals)
    assert case.edit(b"Deploys go through", b"Deploys (Fridays only) go through") >= 1
    before = case.snapshot()
    gone = _removal(old)
    plan = case.harness.plan([*(p for p in proposals if p is not old), gone],
                             case.options(store, replaces={gone.fingerprint: old}))
    assert plan.superseded == [] and plan.entries == [] and plan.empty, plan.diff()
    assert any("kept as it is" in note for note in plan.notes), plan.notes
    assert case.snapshot() == before


def test_capacity_is_answered(case: Case, store: Store) -> None:
    proposals = make_proposals()
    report = case.harness.capacity(proposals, case.options(store))
    for line in report:
        assert line.limit > 0 and line.after >= line.used and line.unit
    _write(case, store, proposals)
    for line in case.harness.capacity(proposals, case.options(store)):
        assert line.after == line.used and not line.entries


def test_doctor_passes_what_it_wrote_and_flags_what_it_cannot_read(case: Case, store: Store) -> None:
    proposals = make_proposals()
    write_id = _write(case, store, proposals)
    assert [f for f in case.harness.doctor(case.root) if f.severity == "error"] == []
    broken = [Path(j.path) for j in store.write_files(write_id)]
    for path in broken:
        _overwrite(case, path, b"\xff\xfe not utf-8 \xc3\x28")
    errors = {f.file for f in case.harness.doctor(case.root) if f.code == "not-utf8"}
    assert errors & {str(p) for p in broken}


def test_a_file_it_cannot_read_is_skipped_with_its_reason(case: Case, store: Store) -> None:
    """Reading memory back (the harness-memory source) passes over a broken file and says so."""
    _write(case, store, make_proposals())
    broken = sorted({Path(e.path) for e in case.harness.read(case.root) if e.path})
    assert broken, "read-back entries say which file holds them"
    for path in broken:
        _overwrite(case, path, b"\xff\xfe not utf-8 \xc3\x28")
    _, skipped = case.harness.read_with_skips(case.root)
    named = " ".join(f"{where} {why}" for where, why in skipped)
    assert [p for p in broken if p.name not in named] == [], skipped
    assert all(why for _, why in skipped)


def _overwrite(case: Case, path: Path, data: bytes) -> None:
    if isinstance(case.harness.files, MemoryFiles):
        case.harness.files.data[path] = data
    else:
        path.write_bytes(data)


def test_registry_names_and_aliases_are_unique() -> None:
    keys = [k for cls in HARNESS_CLASSES for k in (cls.name, *cls.aliases)]
    assert len(keys) == len(set(keys))


def test_declarations_are_class_keywords_and_a_misspelt_one_fails_at_class_creation() -> None:
    class Declared(Harness, name="declared", aliases=("dec",), file_per_entry=True):
        pass

    assert (Declared.name, Declared.aliases, Declared.file_per_entry) == ("declared", ("dec",), True)
    assert Harness.name == "" and Harness.file_per_entry is False  # the base keeps its defaults
    with pytest.raises(TypeError, match=r"home\b.*a harness declares name, label, aliases, home_env"):
        class Misspelt(Harness, name="x", home=".x"):
            pass
