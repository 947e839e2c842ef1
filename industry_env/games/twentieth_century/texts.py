"""20th Century's texts for people: the rules as implemented (``industry-env rules --game twentieth_century``) and
the components with the provenance of every number (``industry-env board --game twentieth_century``)."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from ...core.outputs import write_text_atomic
from .components import SIDES, GameData, Tile, load_data

HEADER = """# 20th Century: the components as implemented

Generated from `industry_env/games/twentieth_century/data/*.toml` by
`industry_env.games.twentieth_century.texts.components_markdown()`; do not edit.
No public source lists the printed tiles, tracks or catastrophe cards, so most numbers are **reconstructed**: each
entry says how it is known (`rulebook`, with the sentence; `public`, with the source; `inferred`, with the
reasoning; `reconstructed`, with the constraint it meets). An owner of the game can type the printed ones in:
`industry-env board --game twentieth_century --template my-tiles.toml` writes the tiles file to correct (the
schema is at its top; `industry-env board --game twentieth_century --part components --template my-comp.toml` the
tracks and catastrophes), `industry-env board --game twentieth_century --board my-tiles.toml` checks it, listing
every error at once, and prints these tables of it, and
`industry-env play --game twentieth_century -o data=my-tiles.toml` plays on it. From Python,
`industry_env.load_game("twentieth_century").reference(n, seed, data=(tiles, components))` plays on both files (a
record stores the files' digest).

A tile's rails are listed as pieces: each piece is a stretch of track passing through no city, with what it touches
(cities a, b, c; the building x; the sides N, E, S, W it leaves by, at rotation 0). Bridges list the pairs of ends a
straight bridge can join on the tile (a city, the building, or a piece r1, r2, ... in the order listed).
"""


def _city(c) -> str:  # noqa: ANN001
    icons = [f"{v} {k}" for k, v in (("coins", c.coins), ("science", c.science), ("VP", c.vp)) if v]
    return f"{c.name}: {', '.join(icons) or 'nothing'}{' + recycling' if c.recycling else ''}"


def _rails(t: Tile) -> str:
    return " ".join(f"r{i + 1}=" + "-".join(sorted(p, key=lambda e: (e in SIDES, e))) for i, p in enumerate(t.rails))


def _bridges(t: Tile) -> str:
    return ", ".join(f"{a}~{b}" for a, b in t.bridges) or "none"


def components_markdown(data: GameData | None = None) -> str:
    """Every component as markdown tables, each entry with its provenance."""
    d = data or load_data()
    prov = d.provenance
    lines = [
        HEADER,
        "## Land tiles",
        "",
        "| id | stack | cities | rails | bridges | provenance |",
        "|---|---|---|---|---|---|",
    ]
    for i, t in enumerate(d.land):
        key = f"land[{i}] {t.id!r}"
        p = "; ".join(f"{k[len(key) + 1 :] or 'all'}: {v}" for k, v in prov.items() if k.startswith(key))
        lines.append(
            f"| {t.id} | {t.stack} | {'; '.join(_city(c) for c in t.cities)} | {_rails(t)} | {_bridges(t)} | {p} |"
        )
    lines += ["", "## Technology tiles", "",
              "| id | stack | name | abilities | garbage | pollution | rails | provenance |",
              "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for i, t in enumerate(d.technologies):
        abil = ", ".join(a.kind + (f" +{a.bonus}" if a.bonus else "") + (f" cost {a.cost}" if a.cost else "")
                         + (f" for {a.vp} VP" if a.vp else "") for a in t.abilities)  # fmt: skip
        rails = _rails(t.tile) if t.tile else "-"
        lines.append(f"| {t.id} | {t.stack} | {t.name} | {abil} | {t.garbage} | {t.pollution:+d} | {rails} | "
                     f"{prov.get(f'technology[{i}] {t.id!r}', '')} |")  # fmt: skip
    lines += ["", "## Catastrophe cards", "", "Columns left (worst) to right (empty): cubes g, pollution steps p. "
              f"Column {d.five_players_only} (0-based) is used only with five players, column {d.four_players_only} "
              "with four or five.", "", "| id | era | columns |", "|---|---|---|"]  # fmt: skip
    for c in d.catastrophes:
        lines.append(f"| {c.id} | {c.era} | {' / '.join(f'{g}g {p}p' for g, p in c.columns)} |")
    lines += ["", f"Cards: {prov.get('catastrophe.count', '')}", "", f"Columns: {prov.get('catastrophe.columns', '')}",
              "", f"Layout: {prov.get('catastrophe_layout.five_players_only', '')}", "",
              "## Technology cost track", "", "| era | science price at each space | provenance |",
              "|---|---|---|"]  # fmt: skip
    for era, track in d.tech_cost.items():
        lines.append(f"| {era} | {', '.join(map(str, track))} | {prov.get(f'tech_cost.{era}', '')} |")
    starts = ", ".join(f"{n} players: space {s + 1}" for n, s in d.tech_cost_start.items())
    lines += ["", f"Start: {starts} ({prov.get('tech_cost.start', '')})", "", "## Pollution track", "",
              "| space | " + " | ".join(f"{v:+d}" for v in range(d.pollution_low, d.pollution_high + 1)) + " |",
              "|---|" + "---|" * len(d.pollution_final),
              "| final VP | " + " | ".join(map(str, d.pollution_final)) + " |",
              "| VP per clean land tile | " + " | ".join(map(str, d.clean_tile)) + " |", ""]  # fmt: skip
    for k in ("low", "start", "final", "clean_tile"):
        lines.append(f"- {k}: {prov.get(f'pollution.{k}', '')}")
    return "\n".join(lines) + "\n"


def rules_text() -> str:
    """The rules as implemented with the rulings (the same text as docs/twentieth-century/rules.md)."""
    return resources.files("industry_env.games.twentieth_century.data").joinpath("rules.md").read_text("utf-8")


TEMPLATE_HEADER = """# A TEMPLATE for an owner of the game: the shipped file, every reconstructed entry's provenance set
# to "printed". Correct each value to the printed component (the schema and how to type a tile are below), then check
# the files with industry_env.games.twentieth_century.components.load_data(tiles, components): every error is listed
# at once. Play on them with Game(n, seed, data=load_data(tiles, components)).
#
"""


def components_template(what: str = "tiles") -> str:
    """A data file (``what``: "tiles" or "components") to type the printed components into: the shipped entries,
    each reconstructed provenance replaced by "printed" (the rulebook's and public facts keep theirs)."""
    if what not in ("tiles", "components"):
        raise ValueError(f"what={what!r}: 'tiles' or 'components'")
    text = resources.files("industry_env.games.twentieth_century.data").joinpath(f"{what}.toml").read_text("utf-8")
    return TEMPLATE_HEADER + re.sub(r'"reconstructed \((?:[^"\\]|\\.)*\)"', '"printed"', text)


def write_template(path: str | Path, what: str = "tiles", overwrite: bool = False) -> Path:
    """Write :func:`components_template` to ``path`` atomically; an existing file is never replaced unless
    ``overwrite``."""
    target = Path(path).expanduser()
    if target.exists() and not overwrite:
        raise FileExistsError(f"{target} exists: choose another path (nothing was written)")
    text = components_template(what)
    write_text_atomic(target, text)
    return target
