"""Every relative link of the docs and the README leads somewhere: to a file of the repository
and, with a `#fragment`, to a heading of that file, slugged as GitHub slugs headings. And the
operations reference's settings table names every setting there is, and no other."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest

from service.shared.settings import ENV_PREFIX, Settings

ROOT = Path(__file__).resolve().parents[3]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(([^()\s]+)\)")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
INLINE_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text lower-cased, without markup and punctuation
    (letters, digits, spaces, `-` and `_` stay), spaces made hyphens."""
    text = INLINE_LINK.sub(r"\1", heading)
    text = re.sub(r"[`*]", "", text).lower()
    text = "".join(char for char in text if char.isalnum() or char in " -_")
    return text.replace(" ", "-")


def prose_lines(path: Path) -> list[str]:
    """The file's lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def anchors(path: Path) -> set[str]:
    """Every heading anchor of a Markdown file, a repeated slug numbered as GitHub numbers it."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose_lines(path):
        heading = HEADING.match(line)
        if heading is None:
            continue
        base = slug(heading.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """The relative links of `page` whose file or heading does not exist (paths shown from
    `root`)."""
    broken = []
    # A link's text may wrap onto the next line: the page is searched whole.
    for target in LINK.findall("\n".join(prose_lines(page))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
            continue
        file_part, _, fragment = target.partition("#")
        linked = (page.parent / file_part).resolve() if file_part else page
        if not linked.exists():
            broken.append(f"{target}: no file {linked.relative_to(root)}")
        elif fragment and linked.suffix == ".md" and fragment not in anchors(linked):
            broken.append(f"{target}: no heading #{fragment} in {linked.relative_to(root)}")
    return broken


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path) -> None:
    # Given a page of the docs, when each relative link is followed
    # Then it reaches an existing file, and a heading of it when it names one
    assert broken_links(page) == []


def test_slugs_follow_githubs_rules(tmp_path: Path) -> None:
    # Given headings with code, punctuation, a link and a repeated title
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n## 5. Randomness goes through `Chance`\n\n## A master's failure: seconds "
        "of 503\n\n## See [the API](api.md), now\n\n```\n# not a heading\n```\n\n## Title\n",
        encoding="utf-8",
    )
    # When its anchors are listed
    # Then each is GitHub's, the repeat numbered, the fenced line left out
    assert anchors(page) == {
        "title",
        "5-randomness-goes-through-chance",
        "a-masters-failure-seconds-of-503",
        "see-the-api-now",
        "title-1",
    }


def test_a_missing_file_or_heading_is_reported(tmp_path: Path) -> None:
    # Given a page linking to itself, to a page that exists, and to what does not
    (tmp_path / "other.md").write_text("# Other\n\n## Its part\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n[ok](other.md#its-part) [self](#page) [web](https://example.org/x#y)\n"
        "[gone](missing.md) [no part](other.md#nowhere) [no self, its text\nwrapped](#nowhere)\n",
        encoding="utf-8",
    )
    # When its links are checked
    broken = [entry.split(":")[0] for entry in broken_links(page, root=tmp_path)]
    # Then exactly the three broken ones are named
    assert broken == ["missing.md", "other.md#nowhere", "#nowhere"]


def test_the_operations_reference_lists_every_setting() -> None:
    # Given the settings table of docs/operations.md
    page = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `(SKALD_[A-Z0-9_]+)` \|", page, flags=re.MULTILINE))
    # When it is held against the fields of Settings
    fields = {ENV_PREFIX + field.name.upper() for field in msgspec.structs.fields(Settings)}
    # Then each field has its row, and no row names a setting that does not exist
    assert listed == fields
