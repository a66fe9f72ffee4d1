"""``--jackknife`` and ``--models``/``--drop-model`` against ROUGE-1.5.5.pl on edited configurations.

ROUGE-1.5.5's RELEASE-NOTE (v1.4) gives the jackknife as configurations expanded by hand: for
N models, each peer scored against every set of N - 1 (its score the mean of the N), and each
model scored as a peer against the other N - 1. Each random case (the in-memory door cases of
:mod:`.doors`: 1-12 evals, made 2-6 models each, every metric, ``-m -s -l -b`` and more) is written as
one configuration with models ``H1``..``HK``, then as the N configurations of those sets (model
k left out of each eval that has it, and made a peer named by its ID), each run by the Perl
with ``-d``. Each instance value of ``--jackknife`` must be the mean, summed in model order, of
the Perl's values of its sets (a model's: the Perl's value of the one set it is a peer of), to
the last bit; an eval of one model: the Perl's value as it is. ``--models K`` and
``--drop-model`` on the configuration must print the Perl's bytes for the configuration edited
by hand. ``ROUGE155PY_JACKKNIFE_CASES`` (default 24) cases; live where the Perl is installed.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from tier import first_fast, seed_chunks

from rouge155py import evaluate_args, format_legacy
from rouge155py.report.archived import read_report

from .doors import make_door_case, option_words, summary_bytes, write_evals

CASES = int(os.environ.get("ROUGE155PY_JACKKNIFE_CASES", "24"))
CHUNK = 8
DATA_DIR = Path(__file__).resolve().parents[2] / "data"


def _perl_instances(
    oracle: Any, root: Path, args: list[str]
) -> dict[tuple[str, str, str], tuple[float, ...]]:
    """The Perl's ``-d`` values: (system, metric, eval ID) -> (R, P, F)."""
    done = oracle.run(["-e", str(oracle.data_dir), "-d", *args], cwd=root)
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    report = read_report(done.stdout.decode("latin-1"))
    found: dict[tuple[str, str, str], list[float]] = {}
    for row, text in report.numbers.items():
        instance, _, measure = row.field.partition(" ")
        if measure in ("R", "P", "F") and "." in instance:
            eval_id = instance[: -len(row.system) - 1]
            found.setdefault((row.system, row.metric, eval_id), []).append(float(text))
    return {key: tuple(values) for key, values in found.items()}


def _ours(root: Path, args: list[str], monkeypatch: pytest.MonkeyPatch) -> dict[tuple[str, str, str], Any]:
    monkeypatch.chdir(root)
    report = evaluate_args(["-e", str(DATA_DIR), *args])
    return {
        (result.peer_id, result.label, instance[: -len(result.peer_id) - 1]): tuple(row)
        for result in report.results
        for instance, row in result.instances.items()
    }


def _mean(rows: list[tuple[float, ...]]) -> tuple[float, ...]:
    sums = [0.0, 0.0, 0.0]
    for row in rows:
        for k in range(3):
            sums[k] += row[k]
    return tuple(s / len(rows) for s in sums)


def _case(seed: int) -> Any:
    case = make_door_case(seed)
    o = case.options
    if case.expect_failure or o.get("counting") or o.get("multi_ref") == "best-f":
        return None  # an error, or no scores (counts) to average
    if o.get("stem") and o.get("stem_models_only"):
        return None  # -m -M: refused (each leave-one-out run of the Perl switches stemming apart)
    return case


def _two_to_six(models: list[list[bytes]], seed: int) -> list[list[bytes]]:
    """Each eval's models made 2 to 6 (the first eval of every third case keeps one: the
    fallback), the extra ones the other evals' references, which the options can read too."""
    pool = [m for refs in models for m in refs]
    out = []
    for i, refs in enumerate(models):
        if i == 0 and seed % 3 == 0:
            out.append(refs[:1])
            continue
        want = 2 + (seed + i) % 5
        extra = [pool[(i + k) % len(pool)] for k in range(max(0, want - len(refs)))]
        out.append([*refs, *extra][:want])
    return out


def check_jackknife(oracle: Any, root: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> str:
    """'' where ``--jackknife`` agrees with the Perl's leave-one-out runs; else what differs."""
    case = _case(seed)
    if case is None:
        return ""
    peers = {pid: [summary_bytes(s) for s in items] for pid, items in case.systems().items()}
    models = _two_to_six([[summary_bytes(s) for s in refs] for refs in case.reference_lists()], seed)
    names = [[f"H{k}" for k in range(1, len(refs) + 1)] for refs in models]
    options = [*option_words(case.options), "-a"]
    write_evals(root, peers, models, case.input_format, model_ids=names)
    ours = _ours(root, [*options, "--jackknife", "-d", "rouge.xml"], monkeypatch)
    most = max(map(len, models))
    runs = []
    for k in range(max(most, 1)):  # set k: model k out of each eval of two or more, and a peer
        kept = [refs if len(refs) < 2 else refs[:k] + refs[k + 1 :] for refs in models]
        ids = [ids if len(ids) < 2 else ids[:k] + ids[k + 1 :] for ids in names]
        extra = [
            {ids[k]: refs[k]} if len(refs) >= 2 and k < len(refs) else {} for refs, ids in zip(models, names)
        ]
        keep = [(len(refs) >= 2 and k < len(refs)) or (len(refs) < 2 and k == 0) for refs in models]
        written = root / f"set{k}"
        pick = [i for i, on in enumerate(keep) if on]
        write_evals(
            written,
            {pid: [docs[i] for i in pick] for pid, docs in peers.items()},
            [kept[i] for i in pick],
            case.input_format,
            eval_ids=[str(i + 1) for i in pick],
            model_ids=[ids[i] for i in pick],
            extra_peers=[extra[i] for i in pick],
        )
        runs.append(_perl_instances(oracle, written, [*options, "rouge.xml"]))
    problems = []
    for (system, metric, eval_id), got in ours.items():
        n = len(models[int(eval_id) - 1])
        if system.startswith("H") and system not in peers:
            want = runs[int(system[1:]) - 1].get((system, metric, eval_id))
        elif n < 2:
            want = runs[0].get((system, metric, eval_id))
        else:
            found = [run.get((system, metric, eval_id)) for run in runs[:n]]
            want = None if None in found else _mean(found)  # type: ignore[arg-type]
        if want != got:
            problems.append(f"{system} {metric} eval {eval_id}: ours {got}, the Perl's {want}")
    return f"seed {seed} {case.describe()}\n" + "\n".join(problems[:5]) if problems else ""


@pytest.mark.parametrize(("start", "stop"), first_fast(seed_chunks(0, CASES, CHUNK)))
def test_jackknife_is_the_mean_of_the_perls_leave_one_out_runs(
    oracle: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: int, stop: int
) -> None:
    problems = [
        check_jackknife(oracle, tmp_path / str(seed), seed, monkeypatch) for seed in range(start, stop)
    ]
    assert not any(problems), "\n\n".join(p for p in problems if p)


@pytest.mark.parametrize(("start", "stop"), first_fast(seed_chunks(0, CASES, CHUNK)))
def test_models_and_drop_model_are_the_perl_on_edited_configurations(
    oracle: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, start: int, stop: int
) -> None:
    """``--models 2`` and ``--drop-model H1,H3``: the Perl's bytes for the configuration with
    those models taken out by hand."""
    problems = []
    for seed in range(start, stop):
        case = make_door_case(seed)
        if case.expect_failure:
            continue
        root = tmp_path / str(seed)
        peers = {pid: [summary_bytes(s) for s in items] for pid, items in case.systems().items()}
        models = [[summary_bytes(s) for s in refs] for refs in case.reference_lists()]
        names = [[f"H{k}" for k in range(1, len(refs) + 1)] for refs in models]
        options = [*option_words(case.options), "-a"]
        write_evals(root, peers, models, case.input_format, model_ids=names)
        for ours, keep in (
            (["--models", "2"], lambda ids: ids[:2]),
            (["--drop-model", "H1,H3"], lambda ids: [i for i in ids if i not in ("H1", "H3")]),
        ):
            edited = root / "edited"
            kept_ids = [keep(ids) for ids in names]
            write_evals(
                edited,
                peers,
                [
                    [m for m, i in zip(refs, ids) if i in kept]
                    for refs, ids, kept in zip(models, names, kept_ids)
                ],
                case.input_format,
                model_ids=kept_ids,
            )
            perl = oracle.run(["-e", str(oracle.data_dir), *options, "rouge.xml"], cwd=edited)
            monkeypatch.chdir(root)
            try:
                port = format_legacy(evaluate_args(["-e", str(DATA_DIR), *ours, *options, "rouge.xml"]))
            except Exception as error:  # the Perl's death on an eval left with no model, say
                if perl.returncode == 0:
                    problems.append(f"seed {seed} {ours}: the port failed ({error}), the Perl did not")
                continue
            if perl.returncode != 0 or port.encode("latin-1", "replace") != perl.stdout:
                problems.append(f"seed {seed} {ours}: {case.describe()}")
    assert not problems, "\n".join(problems)


def test_the_bundled_example_jackknifed_is_the_perls_leave_one_out_runs(
    oracle: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """examples/duc-mini (10 evals, 3 systems, models A-D) under ``-a -n 2 -2 4 -u -m``: each
    instance of ``--jackknife`` is the mean of the Perl's four leave-one-out runs, each model's
    its run as a peer."""
    repo = DATA_DIR.parent
    config = (repo / "examples" / "duc-mini" / "rouge-config.xml").read_text(encoding="utf-8")
    options = ["-a", "-n", "2", "-2", "4", "-u", "-m"]
    ours = _ours(repo, [*options, "--jackknife", "-d", "examples/duc-mini/rouge-config.xml"], monkeypatch)
    runs = []
    for model_id in "ABCD":
        mark = f'<M ID="{model_id}">'
        evals = []
        for block in config.split("<EVAL ")[1:]:  # model out of the models, and a peer
            own = next(x for x in block.splitlines() if x.startswith(mark)).split(">")[1].split("<")[0]
            kept = [x for x in block.splitlines() if not x.startswith(mark)]
            at = kept.index("<PEERS>") + 1
            evals.append("\n".join([*kept[:at], f'<P ID="{model_id}">../models/{own}</P>', *kept[at:]]))
        written = tmp_path / f"without-{model_id}.xml"
        written.write_text(
            config.split("<EVAL ")[0] + "".join(f"<EVAL {ev}\n" for ev in evals), encoding="utf-8"
        )
        runs.append(_perl_instances(oracle, repo, [*options, str(written)]))
    assert len(ours) == 7 * 10 * 4  # systems 1-3 and A-D, 10 evals, ROUGE-1, -2, -L and -SU4
    for (system, metric, eval_id), got in ours.items():
        if system in "ABCD":
            want = runs["ABCD".index(system)][(system, metric, eval_id)]
        else:
            want = _mean([run[(system, metric, eval_id)] for run in runs])
        assert got == want, (system, metric, eval_id)
