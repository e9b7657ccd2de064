"""The maintainers' words wherever they are: a guide in a docs site's sources, behind a pointer, in any markup.

Each repository is built with ``git`` and read through the real git source, so the test covers
what a scan of such a checkout reads (selection, the pointer pass) as well as what the signals
make of it. Each case is a shape the second held-out set met in real projects: a guide published
by the project's site (front matter and all), a CONTRIBUTING that names the docs folder holding
the real guidelines (an rst index with a toctree), a CONTRIBUTING whose only line is a docs-site
URL of a POD file the repository holds, an AsciiDoc or Org guide, and a CONTRIBUTING that sends
its reader to the README.
"""

from __future__ import annotations

from pathlib import Path

from bootstrap_app.ecosystems.guides import as_markdown, is_guide_path, pointed_docs

from .gitrepo import build, facts_of, read

_MAKEFILE = "test:\n\tpytest\n\ncheck:\n\tpytest -q\n\nlint:\n\truff check .\n"


def _rules(f: object) -> str:
    return "\n".join(f"{r.where} {r.text}" for r in getattr(f, "rules", ()))


def _commands(f: object) -> dict[str, tuple[str, str]]:
    return dict(getattr(f, "commands", {}))


def test_a_guide_in_a_docs_site_is_read_front_matter_and_all(tmp_path: Path) -> None:
    guide = ("---\ntitle: Contributing\noutline: deep\n---\n\n# Contributing\n\n## Making changes\n\n"
             "You must run `make lint` before you open a pull request.\n\n"
             "Please disclose any use of AI tools in the pull request description.\n")
    f = facts_of(tmp_path, {"website/src/docs/contributing.md": guide, "Makefile": _MAKEFILE,
                            "README.md": "# proj\n\nA tool.\n"})
    assert "website/src/docs/contributing.md" in f.guides
    assert "disclose any use of AI tools" in _rules(f)
    cmd, where = _commands(f)["lint"]
    assert cmd == "make lint" and where.startswith("website/src/docs/contributing.md:")


def test_a_guide_naming_the_docs_folder_leads_to_the_pages_of_its_index(tmp_path: Path) -> None:
    index = "Development\n===========\n\n.. toctree::\n    :maxdepth: 2\n\n    patches\n"
    patches = ("Submitting patches\n==================\n\n"
               "All code changes must be accompanied by unit tests with 100% code coverage.\n\n"
               "Run the linters with ``make lint`` before you submit a patch.\n")
    f = facts_of(tmp_path, {"CONTRIBUTING.rst": "Guidelines are in the repository at ``docs/dev/index.rst``.\n",
                            "docs/dev/index.rst": index, "docs/dev/patches.rst": patches, "Makefile": _MAKEFILE})
    assert "docs/dev/patches.rst" in _rules(f) and "100% code coverage" in _rules(f)
    assert _commands(f)["lint"][0] == "make lint"


def test_a_docs_site_url_leads_to_the_pod_file_the_repository_holds(tmp_path: Path) -> None:
    pod = ("=encoding utf8\n\n=head1 NAME\n\nProj::Guides::Contributing - Contributing\n\n=head1 CONTRIBUTING CODE\n\n"
           "All code changes should include tests that fail without them.\n\n"
           "Run the test suite with C<make check> before you send a pull request.\n\n=cut\n")
    f = facts_of(tmp_path, {".github/CONTRIBUTING.md": "Please read the guide for [contributing](https://proj.example/"
                                                       "perldoc/Proj/Guides/Contributing).\n",
                            "lib/Proj/Guides/Contributing.pod": pod, "Makefile": _MAKEFILE})
    assert "lib/Proj/Guides/Contributing.pod:" in _rules(f) and "tests that fail without them" in _rules(f)
    assert _commands(f)["test"][0] == "make check"


def test_asciidoc_and_org_guides_are_read_as_their_markup_says(tmp_path: Path) -> None:
    adoc = ("= Contributing\n\n== Testing\n\nRun the suite before you push:\n\n[source,shell]\n----\nmake check\n----\n\n"
            "Commits must be signed off with `git commit -s`.\n")
    f = facts_of(tmp_path, {"CONTRIBUTING.adoc": adoc, "Makefile": _MAKEFILE})
    assert "CONTRIBUTING.adoc" in f.guides
    assert _commands(f)["test"][0] == "make check" and _commands(f)["test"][1].startswith("CONTRIBUTING.adoc:9")
    org = "* Hacking\n\n** Linting\n\nAlways lint before committing:\n\n#+begin_src sh\nmake lint\n#+end_src\n"
    assert as_markdown("HACKING.org", org).splitlines()[6:9] == ["```sh", "make lint", "```"]
    f = facts_of(tmp_path / "org", {"HACKING.org": org, "Makefile": _MAKEFILE})
    assert _commands(f)["lint"][0] == "make lint" and _commands(f)["lint"][1].startswith("HACKING.org:8")


def test_a_guide_sending_its_reader_to_the_readme_makes_the_readmes_sections_the_guide(tmp_path: Path) -> None:
    readme = ("# proj\n\nA tool.\n\n## Contributing\n\n"
              "Pull requests must be editable by maintainers, or they may be closed.\n")
    f = facts_of(tmp_path, {"CONTRIBUTING.md": "See [the readme](README.md#contributing) for the workflow.\n",
                            "README.md": readme, "Makefile": _MAKEFILE})
    assert "editable by maintainers" in _rules(f)


def test_where_guides_are_and_where_pointers_lead() -> None:
    assert is_guide_path("website/src/latest/docs/contributing.md") and is_guide_path("CONTRIBUTING.adoc")
    assert is_guide_path("docs/development/getting-started.rst")
    # a docs site's deeper "getting started" is for users; a bare `build` is a folder or script
    assert not is_guide_path("website/src/docs/getting-started.md") and not is_guide_path("build")
    assert not is_guide_path("website/node_modules/pkg/contributing.md")
    listed = ["CONTRIBUTING.md", "README.md", "docs/a.md", "lib/X/Guides/Contributing.pod", "NEWS.md"]
    text = "[a](docs/a.md) [news](NEWS.md) [web](https://x.example/doc/X/Guides/Contributing) [r](README.md)"
    assert pointed_docs("CONTRIBUTING.md", text, listed) == ["docs/a.md", "lib/X/Guides/Contributing.pod"]
    assert "README.md" in pointed_docs("CONTRIBUTING.md", text, listed, own_roles=True)
    # one matching segment is not enough unless it names a guide
    assert pointed_docs("CONTRIBUTING.md", "https://x.example/a.md", ["docs/a.md"]) == []


def test_a_readme_section_a_guide_links_to_is_read_at_its_own_lines(tmp_path: Path) -> None:
    filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n\n" * 1400  # past the README cap
    readme = "# proj\n\nA tool.\n\n" + filler + "Contributing\n------------\n\nPull requests must be editable by maintainers.\n"
    repo, _ = read(build(tmp_path, {"README.md": readme, "CONTRIBUTING.md": "See [the readme](README.md#contributing).\n"}))
    lines = repo.files["README.md"].splitlines()
    at = readme.splitlines().index("Contributing")
    assert lines[at] == "Contributing" and lines[at + 3] == "Pull requests must be editable by maintainers."
    # without the pointer the README is read only up to its cap
    repo, _ = read(build(tmp_path / "plain", {"README.md": readme}))
    assert "editable by maintainers" not in repo.files["README.md"]
