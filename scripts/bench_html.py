"""The HTML report's size and the time to make it, load it, sort it and open an item, in Debian's
Chromium (headless, driven by Playwright), for the bundled example and bench.py's CNN-like pairs.

    python scripts/bench_html.py [--pairs 11490] [--workdir /tmp/rouge155py-bench] [--repeat 3]

Each page is made from the lists of strings (``Rouge(max_ngram=2, stem=True)``, then
``to_html()``; the bundled example by the command line, ``-a -n 2 -m --format html``); the
times are medians of ``--repeat`` loads in a new page each.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bench import CNN, REPO, api_texts

_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
]  # fmt: skip


def _browse(page_path: Path, repeat: int) -> dict[str, float]:
    """Median seconds to load the page, sort its items by a column, and show its first item."""
    from playwright.sync_api import sync_playwright

    found: dict[str, list[float]] = {"load": [], "sort": [], "item": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=_ARGS)
        for _ in range(repeat):
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            start = time.perf_counter()
            page.goto(page_path.as_uri(), wait_until="load")
            page.wait_for_selector("#item-controls:not([hidden])")  # the script has run
            found["load"].append(time.perf_counter() - start)
            start = time.perf_counter()
            page.click("#items-table thead th:nth-child(2)")
            page.wait_for_selector("#items-table thead th.desc")
            found["sort"].append(time.perf_counter() - start)
            start = time.perf_counter()
            page.click("#items-table tbody tr:nth-child(1)")
            page.wait_for_selector("#item-body .pair")
            found["item"].append(time.perf_counter() - start)
            page.close()
        browser.close()
    return {name: statistics.median(times) for name, times in found.items()}


def _line(name: str, items: int, size: int, made: float, times: dict[str, float]) -> str:
    return (
        f"| {name} | {items:,} | {size / 1e6:.2f} MB | {made:.2f} s | {times['load']:.2f} s | "
        f"{times['sort']:.2f} s | {times['item']:.3f} s |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=11490)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/rouge155py-bench"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    print("| page | items | size | made in | loaded in | sorted in | item shown in |")
    print("| --- | --- | --- | --- | --- | --- | --- |")

    page = args.workdir / "duc-mini.html"
    start = time.perf_counter()
    command = [sys.executable, "-m", "rouge155py", "-a", "-n", "2", "-m", "--format", "html"]
    done = subprocess.run(
        [*command, "examples/duc-mini/rouge-config.xml"], cwd=REPO, capture_output=True, check=True
    )
    made = time.perf_counter() - start
    page.write_bytes(done.stdout)
    print(
        _line("bundled example (command line)", 10, len(done.stdout), made, _browse(page, args.repeat)),
        flush=True,
    )

    texts = api_texts(CNN, args.workdir, args.pairs)
    predictions, references = json.loads(texts.read_text(encoding="ascii"))
    from rouge155py import Rouge

    start = time.perf_counter()
    html = Rouge(max_ngram=2, stem=True).score(predictions, references).to_html()
    made = time.perf_counter() - start
    page = args.workdir / f"cnn-{args.pairs}.html"
    page.write_text(html, encoding="utf-8")
    print(
        _line(
            "CNN-like pairs (Rouge.score + to_html)",
            args.pairs,
            len(html.encode()),
            made,
            _browse(page, args.repeat),
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
