"""``--format html`` and ``Report.to_html()``: one self-contained page.

The item view's marks are checked against ROUGE's own counts (``-t 1``: the hits of each
instance): the unigrams marked on each side and ROUGE-L's hits marked on the references add
up to ROUGE-1's and ROUGE-L's hit counts. The page is read by a parser (tables, data, nothing
fetched), and by a real browser where Debian's Chromium and Playwright are installed (CI:
``ROUGE155PY_REQUIRE_BROWSER=1`` makes their absence a failure): sorting by a column, an
item's texts, the highlight switches, a screenshot, and the tables with JavaScript off.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Optional

import pytest

from rouge155py import Rouge
from rouge155py.errors import UsageError
from rouge155py.report.items import BIGRAM, LCS, UNCOUNTED, UNIGRAM, item_texts, matches

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "examples" / "duc-mini" / "rouge-config.xml"
WORDS = "the a of cat cats dog dogs sat sitting ran running on mat mats night bark barked loud fox".split()


def _text(rng: random.Random) -> str:
    return "\n".join(
        " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 9))) for _ in range(rng.randint(1, 3))
    )


def _bits(rows: list[list[int]], bit: int) -> int:
    return sum(1 for sentence in rows for mark in sentence if mark & bit)


@pytest.mark.parametrize("seed", range(6))
def test_the_marks_count_rouges_hits(seed: int) -> None:
    rng = random.Random(seed)
    predictions = [_text(rng) for _ in range(25)]
    references = [[_text(rng) for _ in range(rng.randint(1, 3))] for _ in range(25)]
    options: dict[str, Any] = {"stem": seed % 2 == 1, "stopwords": seed % 3 == 0, "multi_ref": "average"}
    counted = Rouge(rouge_types=["rouge1", "rougeLsum"], counting=1, **options)
    report = counted.score(predictions, references)
    items = list(item_texts(counted.options, report.texts))
    assert len(items) == 25
    for k, item in enumerate(items):
        peer = item.peers["1"]
        marks = [matches(peer, reference) for reference in item.references]
        unigram_hits = report.result("ROUGE-1", "1").instances[f"{k + 1}.1"]  # (model, peer, hit) under -t 1
        lcs_hits = report.result("ROUGE-L", "1").instances[f"{k + 1}.1"]
        assert sum(_bits(r, UNIGRAM) for _, r in marks) == unigram_hits[2]
        assert sum(_bits(p, UNIGRAM) for p, _ in marks) == unigram_hits[2]
        assert sum(_bits(r, LCS) for _, r in marks) == lcs_hits[2]
        for p, r in marks:  # a word not counted matches nothing; a matched bigram marks two words
            for rows in (p, r):
                assert all(not m & UNCOUNTED or m == UNCOUNTED for s in rows for m in s)
                assert _bits(rows, BIGRAM) != 1
        if options["stopwords"]:
            assert any(_bits(m, UNCOUNTED) for pair in marks for m in pair) or not any(
                w in ("the", "a", "of", "on") for s in peer.words for w in s
            )


class _Page(HTMLParser):
    """What the tests read of a page: tables' rows, scripts, every URL it names."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: dict[str, int] = {}
        self.table: Optional[str] = None
        self.in_body = False
        self.urls: list[str] = []
        self.data = ""
        self.in_data = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, Optional[str]]]) -> None:
        found = dict(attrs)
        if tag == "table":
            self.table = found.get("class")
        if tag == "tbody":
            self.in_body = True
        if tag == "tr" and self.in_body and self.table is not None:
            self.rows[self.table] = self.rows.get(self.table, 0) + 1
        for name in ("src", "href"):
            if found.get(name):
                self.urls.append(str(found[name]))
        self.in_data = tag == "script" and found.get("id") == "data"

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self.in_body = False
        if tag == "script":
            self.in_data = False

    def handle_data(self, data: str) -> None:
        if self.in_data:
            self.data += data


def _cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "rouge155py", *args], cwd=REPO, capture_output=True, check=False
    )


def test_the_command_lines_page_holds_both_tables_and_every_items_texts() -> None:
    done = _cli("-e", "data", "-a", "-n", "2", "-m", "--format", "html", str(CONFIG))
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    page = _Page()
    page.feed(done.stdout.decode("utf-8"))
    assert page.rows == {"systems": 3, "items": 10}
    assert page.urls == []  # nothing fetched: no src, no href
    data = json.loads(page.data)
    assert data["labels"] == ["ROUGE-1", "ROUGE-2", "ROUGE-L"] and data["systems"] == ["1", "2", "3"]
    assert len(data["texts"]) == 10 and all(len(t["references"]) == 4 for t in data["texts"])
    legacy = _cli("-e", "data", "-a", "-n", "2", "-m", "-d", str(CONFIG)).stdout.decode()
    f = re.search(r"^1 ROUGE-1 Eval D01\.1 R:\S+ P:\S+ F:(\S+)$", legacy, re.MULTILINE)
    assert f is not None and data["scores"][data["ids"].index("D01")][0][0] == float(f.group(1))


def test_a_page_without_texts_has_the_tables() -> None:
    accumulator = Rouge(rouge_types=["rouge1"]).accumulator()
    accumulator.update(["the cat sat", "a dog"], ["a cat sat", "the dog barked"])
    page = _Page()
    page.feed(accumulator.compute().to_html())
    assert page.rows == {"systems": 1, "items": 2} and json.loads(page.data)["texts"] is None
    with pytest.raises(UsageError, match="-t 1 or -t 2"):
        Rouge(rouge_types=["rouge1"], counting=1).score(["a b"], ["a b"]).to_html()


def _browser() -> Optional[str]:
    found = shutil.which("chromium")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        found = None
    if found is None and os.environ.get("ROUGE155PY_REQUIRE_BROWSER") == "1":
        pytest.fail("ROUGE155PY_REQUIRE_BROWSER=1: Debian's chromium and Playwright must be installed")
    return found


_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]  # fmt: skip


@pytest.mark.slow
def test_in_a_browser_it_sorts_shows_an_item_and_reads_without_javascript(tmp_path: Path) -> None:
    chromium = _browser()
    if chromium is None:
        pytest.skip("no chromium and Playwright (apt-get install chromium; pip install playwright)")
    from playwright.sync_api import sync_playwright

    page_path = tmp_path / "report.html"
    rouge = Rouge(rouge_types=["rouge1", "rouge2", "rougeLsum"], stem=True, multi_ref="average")
    rng = random.Random(5)
    predictions = {"A": [_text(rng) for _ in range(30)], "B": [_text(rng) for _ in range(30)]}
    references = [[_text(rng), _text(rng)] for _ in range(30)]
    report = rouge.score(predictions, references)
    page_path.write_text(report.to_html(), encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=_ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(page_path.as_uri())
        # sort by system A's ROUGE-2 (columns: eval, then each metric's systems), highest first
        assert page.text_content("#items-table thead th:nth-child(4)") == "A ROUGE-2"
        page.click("#items-table thead th:nth-child(4)")
        shown = page.eval_on_selector_all(
            "#items-table tbody tr", "rows => rows.map(r => r.cells[3].textContent)"
        )
        expected = sorted((f"{s.fmeasure:.5f}" for s in report["rouge2", "A"].items), key=float, reverse=True)
        assert shown == expected
        # the difference A - B on ROUGE-1, sorted
        page.click("#items-table thead th.diff")
        differences = page.eval_on_selector_all(
            "#items-table tbody td.diff", "cells => cells.map(c => +c.textContent)"
        )
        assert differences == sorted(differences, reverse=True) and len(differences) == 30
        # an item: its two references, each beside system A's summary marked against it
        page.click("#items-table tbody tr:nth-child(1)")
        page.wait_for_selector("#item:not([hidden])")
        assert page.locator("#item-body .pair").count() == 2
        assert page.locator("#item-body .u").count() > 0
        page.uncheck("#show-u")
        assert "no-u" in (page.get_attribute("#item-body", "class") or "")
        page.select_option("#item-system", "1")
        assert page.text_content("#item-body .pair h3").startswith("B ")
        picture = page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        assert errors == []
        # JavaScript off: the tables are there, the controls that need it are not shown
        plain = browser.new_context(java_script_enabled=False).new_page()
        plain.goto(page_path.as_uri())
        assert plain.locator("table.systems tbody tr").count() == 2
        assert plain.locator("table.items tbody tr").count() == 30
        assert not plain.is_visible("#item-controls") and not plain.is_visible("#item")
        browser.close()
    assert picture[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(picture[16:20], "big"), int.from_bytes(picture[20:24], "big")
    assert width == 1280 and height > 900  # the whole page: tables, pictures and the item
