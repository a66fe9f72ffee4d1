"""The official ROUGE settings of the DUC and TAC evaluations, by name (``--preset NAME``).

Each preset is the options of the ROUGE-1.5.5.pl command its year's organizers published, as
an argument vector, with the public document that states the command and a short quotation of
it. A preset is added only with such a source: years whose command was not found in a public
document have none. Where the source says the official tables were jackknifed, ``jackknife``
records it; the preset itself does not jackknife: ``--jackknife`` (``Rouge(jackknife=True)``)
added to it makes those tables.

The command line puts a preset's options in front of the user's, and a Perl flag that both
give is an error (:func:`~rouge155py.settings.argv.parse_command_line`); :class:`~rouge155py.Rouge`
takes ``preset=`` with the same rule for its keywords.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import UsageError, described

__all__ = ["PRESETS", "Preset", "known_preset", "listing", "preset"]


@dataclass(frozen=True)
class Preset:
    """One year's official options: ``options`` as an argument vector, and their source."""

    name: str
    options: tuple[str, ...]
    title: str  # the source's title
    url: str
    quote: str  # the command as the source gives it
    jackknife: bool = False  # the official tables were jackknifed (over the models)


#: The presets, by name, in the order ``--preset list`` prints them.
PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        # The quoted text is the "Measures" section of NIST's DUC 2006 task page; a contemporary
        # summary of that page (hamotzi.blogspot.com/2008/11/duc-2006-task.html: "ROUGE-2 and
        # ROUGE-SU4 with stemming and keeping stopwords", BE-F from Minipar matched Head-Modifier)
        # repeats its wording for 2006.
        Preset(
            name="duc2006",
            options=tuple("-n 2 -x -m -2 4 -u -c 95 -r 1000 -f A -p 0.5 -t 0 -d".split()),
            title="DUC 2006: Task, Documents, and Measures (NIST)",
            url="http://www-nlpir.nist.gov/projects/duc/duc2006/tasks.html",
            quote="ROUGE-1.5.5.pl -n 2 -x -m -2 4 -u -c 95 -r 1000 -f A -p 0.5 -t 0 -d",
            jackknife=True,
        ),
    )
}


def preset(name: str) -> Preset:
    """The preset ``name``; an unknown name is a :class:`UsageError` naming the known ones."""
    found = PRESETS.get(name)
    if found is None:
        raise UsageError(
            f"unknown preset {name!r}: the presets are {', '.join(PRESETS)} (--preset list shows them)"
        )
    return found


def known_preset(name: str, value: Any) -> str:
    """The check of the ``preset`` setting: the name of a preset."""
    if not isinstance(value, str):
        raise UsageError(f"{name} must be a preset's name (a string), got {described(value)}")
    return preset(value).name


def listing() -> str:
    """What ``--preset list`` prints: each preset, its options, whether the official tables were
    jackknifed, and its source."""
    lines = []
    for p in PRESETS.values():
        lines.append(f"{p.name}: {' '.join(p.options)}")
        if p.jackknife:
            lines.append("  jackknifed in the official tables")
        lines.append(f"  source: {p.title}, {p.url}")
        lines.append(f'  quote: "{p.quote}"')
    return "\n".join(lines) + "\n"
