"""Live differential tests: the port against the reference ROUGE-1.5.5.pl.

``ROUGE155PY_DIFF_CASES`` (default 150) random cases per metric family, from the seed
``ROUGE155PY_DIFF_SEED`` (default 0; the ALL family's seeds start 100,000 above it);
they are skipped when the reference Perl is not installed
(``python tests/reference/oracle.py --install``).  A large batch, for instance::

    ROUGE155PY_DIFF_CASES=2000 ROUGE155PY_DIFF_SEED=5000 \\
        python -m pytest tests/differential/test_differential.py -k ALL

A failure names each mismatching case with its seed: ``make_case(seed, directory,
metrics)`` writes it again.  The generator tests need no Perl.  The fast tier
(``-m "not slow"``) runs the first three cases of each family.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from tier import first_fast, seed_chunks

from .generate import SAFE_LEAD_WORDS, Case, make_case
from .runner import REPO_ROOT, compare, run_both

if TYPE_CHECKING:
    from collections.abc import Iterator

    from reference.oracle import Oracle

CASES = int(os.environ.get("ROUGE155PY_DIFF_CASES", "150"))
SEED = int(os.environ.get("ROUGE155PY_DIFF_SEED", "0"))
CHUNK = 10
# Seeds of the two families do not overlap, so a failure names one case.
FIRST_SEED = {"N": SEED, "ALL": SEED + 100_000}


def _chunks(metrics: str) -> list[Any]:
    return first_fast(
        [(metrics, start, stop) for start, stop in seed_chunks(FIRST_SEED[metrics], CASES, CHUNK)]
    )


@pytest.mark.parametrize(
    ("metrics", "start", "stop"),
    _chunks("N") + _chunks("ALL"),
    ids=lambda v: str(v),
)
def test_port_matches_perl(oracle: Oracle, tmp_path: Path, metrics: str, start: int, stop: int) -> None:
    problems = []
    for seed in range(start, stop):
        case = make_case(seed, tmp_path / f"{metrics}-{seed}", metrics)
        problem = compare(run_both(case, oracle))
        if problem is not None:
            problems.append(problem)
    assert not problems, "\n\n".join(problems)


# -- the generator itself ----------------------------------------------------


def _tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("metrics", first_fast(["N", "ALL"]))
def test_generator_is_deterministic(tmp_path: Path, metrics: str) -> None:
    for seed in range(40):
        a = make_case(seed, tmp_path / "a" / str(seed), metrics)
        b = make_case(seed, tmp_path / "b" / str(seed), metrics)
        assert a.args == b.args
        assert a.expect_failure == b.expect_failure
        assert _tree(a.cwd) == _tree(b.cwd)
    other = make_case(1, tmp_path / "c", metrics)
    assert (other.args, _tree(other.cwd)) != (a.args, _tree(a.cwd))


def _text(element: ET.Element) -> str:
    """The element's last text node, trimmed: the one the Perl keeps."""
    nodes = [element.text] + [child.tail for child in element]
    last = [node for node in nodes if node is not None]
    return re.sub(r"^\s+|\s+$", "", last[-1] if last else "")


def _xml_paths(case: Case, config: Path) -> Iterator[Path]:
    """Every peer and model path the configuration names, as the Perl builds them."""
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))
    tree = ET.parse(config, parser)
    for ev in tree.iter():
        if not isinstance(ev.tag, str) or ev.tag.upper() != "EVAL":
            continue
        children = {c.tag.upper(): c for c in ev.iter() if isinstance(c.tag, str)}
        peer_root = _text(children["PEER-ROOT"])
        model_root = _text(children["MODEL-ROOT"])
        for child in ev.iter():
            if not isinstance(child.tag, str):
                continue
            if child.tag.upper() == "P":
                yield case.cwd / f"{peer_root}/{_text(child)}"
            elif child.tag.upper() == "M":
                yield case.cwd / f"{model_root}/{_text(child)}"


def _list_paths(case: Case, config: Path) -> Iterator[Path]:
    for line in config.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        for name in line.split():
            yield case.cwd / name


@pytest.mark.slow
@pytest.mark.parametrize("metrics", ["N", "ALL"])
def test_generated_configs_name_existing_files(tmp_path: Path, metrics: str) -> None:
    failures = 0
    for seed in range(200):
        case = make_case(seed, tmp_path / str(seed), metrics)
        if case.expect_failure is not None:
            failures += 1
            continue
        config = case.cwd / case.config
        paths = list((_list_paths if case.file_list else _xml_paths)(case, config))
        assert paths, case.describe()
        for path in paths:
            assert path.is_file(), f"{case.describe()}: {path} is missing"
    assert 0 < failures < 40


def test_safe_lead_words_survive_every_limit() -> None:
    stopwords = set((REPO_ROOT / "data" / "smart_common_words.txt").read_bytes().split(b"\n"))
    for word in SAFE_LEAD_WORDS:
        for end in range(2, len(word) + 1):
            assert word[:end] not in stopwords, word[:end]
