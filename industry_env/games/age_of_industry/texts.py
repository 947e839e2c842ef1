"""Age of Industry's texts for people: the components as tables with the provenance of every value (``industry-env
board --game age_of_industry``), blank templates to type the printed components into, and the rules as implemented
(``industry-env rules --game age_of_industry``)."""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import TextIO

from ...core.outputs import write_text_atomic
from .components import (
    ALL_SYMBOLS,
    MAPS,
    MARKET_KINDS,
    MAX_DEMAND_SPACES,
    MAX_LINKS,
    MAX_LOCATIONS,
    MAX_SPACES,
    Components,
    GameMap,
    load_components,
    load_map,
)
from .rules import INDUSTRIES


# ============================================================================================ tables and templates
def components_markdown(components: Components | None = None) -> str:
    """The components and both shipped maps as markdown tables, each value with its provenance."""
    c = components or load_components()
    lines = ["# Age of Industry: the components as implemented", "",
             "Generated from the data files by `industry_env.games.age_of_industry.texts.components_markdown()`;",
             "do not edit.",
             "The printed components are not public: every value is marked with how it is known (`rulebook`, with",
             "the sentence; `public`, with the source; `inferred`, with the reasoning; `reconstructed`, with the",
             "constraint it satisfies). Provenance values that equal the file's default are shown as `default`.", "",
             "A components or map file of one's own is checked against the same rules and against the engines'",
             f"integer types: at most {MAX_SPACES:,} spaces, {MAX_LINKS:,} links and {MAX_LOCATIONS:,} locations "
             f"on a map, {MAX_DEMAND_SPACES} spaces",
             "on a demand track; and two names (locations, card colours, industries) must differ in more than case",
             "or spacing, since actions are read ignoring both.", "",
             f"Default provenance of `components.toml`: {_default_prov(c.provenance)}", "",
             "## Player display (one per player)", "",
             "| industry | level | counters | cost | coal | iron | cubes | income | provenance |",
             "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    default = _default_prov(c.provenance)
    for d in range(c.num_slots):
        name = f"display {INDUSTRIES[c.SLOT_INDUSTRY[d]]} {c.SLOT_LEVEL[d]}"
        prov = "; ".join(f"{k}: {v}" for k, v in c.provenance[name].items() if v != default) or "default"
        lines.append(f"| {INDUSTRIES[c.SLOT_INDUSTRY[d]]} | {c.SLOT_LEVEL[d]} | {c.SLOT_COUNTERS[d]} | "
                     f"{c.SLOT_COST[d]} | {c.SLOT_COAL[d]} | {c.SLOT_IRON[d]} | {c.SLOT_CUBES[d]} | "
                     f"{c.SLOT_INCOME[d]} | {prov} |")  # fmt: skip
    lines += ["", "## Deck (66 cards)", "", "| card | count | provenance |", "|---|---|---|"]
    for k in range(c.num_card_kinds):
        label = c.card_label(k)
        kind = "industry" if c.CARD_INDUSTRY[k] >= 0 else "location"
        prov = c.provenance[f"card {label}"]["count"]
        lines.append(f"| {kind}: {label} | {c.CARD_COUNT[k]} | {'default' if prov == default else prov} |")
    lines += ["", "## Market tiles (18)", "", "| tile | count | provenance |", "|---|---|---|"]
    for t, kind in enumerate(MARKET_KINDS):
        prov = c.provenance[f"market_tile {kind}"]["count"]
        lines.append(f"| {kind} | {c.TILE_COUNT[t]} | {'default' if prov == default else prov} |")
    lines += ["", "## Demand track and loan tile", "", "| entry | value | provenance |", "|---|---|---|"]
    for r, name in enumerate(("coal", "iron")):
        prices = ", ".join(f"${x}" for x in c.DEMAND_PRICES[r])
        lines.append(f"| demand {name} (dearest space first) | {prices} | {c.provenance['demand'][name]} |")
    for key in ("value", "repay", "interest"):
        lines.append(f"| loan {key} | ${getattr(c, 'LOAN_' + key.upper())} | {c.provenance['loan'][key]} |")
    for key in MAPS:
        lines += ["", *map_markdown(load_map(key, c), c)]
    return "\n".join(lines) + "\n"


def _default_prov(prov: dict[str, dict[str, str]]) -> str:
    """The most common provenance value (the file's [meta] default)."""
    values = [v for entry in prov.values() for v in entry.values()]
    return max(set(values), key=values.count) if values else "reconstructed"


def map_markdown(m: GameMap, c: Components) -> list[str]:
    """One map as markdown tables: locations with their spaces, then links."""
    default = _default_prov(m.provenance)
    lines = [f"## Map: {m.name}", "", f"{m.num_locations} locations, {m.num_spaces} spaces, "
             f"{m.num_rail_links} potential rail links, {m.num_links - m.num_rail_links} sea lanes, "
             f"{len(m.market_spaces)} market spaces. Default provenance: {default}", "",
             "| location | colour | spaces | extra | provenance |", "|---|---|---|---|---|"]  # fmt: skip
    for x in range(m.num_locations):
        colour = c.colours[m.LOC_COLOUR[x]] if m.LOC_COLOUR[x] >= 0 else "-"
        spaces = ", ".join(ALL_SYMBOLS[m.SPACE_SYMBOL[sp]] for sp in m.LOC_SPACES[x]) or "-"
        extra = ", ".join(w for w, f in (("village", m.LOC_VILLAGE[x]), ("distant port", m.LOC_DISTANT_PORT[x]),
                                         ("no through (Pennsylvania rule)", m.LOC_NO_THROUGH[x])) if f)  # fmt: skip
        imp = [m.SPACE_IMPORT[sp] for sp in m.LOC_SPACES[x] if m.SPACE_IMPORT[sp]]
        extra = ", ".join(filter(None, [extra, f"imports {imp[0]} coal" if imp else ""])) or "-"
        prov = "; ".join(f"{k}: {v}" for k, v in m.provenance[f"location {m.location_names[x]}"].items()
                         if v != default) or "default"  # fmt: skip
        lines.append(f"| {m.location_names[x]} | {colour} | {spaces} | {extra} | {prov} |")
    lines += ["", "| link | kind | provenance |", "|---|---|---|"]
    for li in range(m.num_links):
        a, b = m.location_names[m.LINK_A[li]], m.location_names[m.LINK_B[li]]
        prov = m.provenance[f"link {min(a, b, key=m.location_names.index)}-{max(a, b, key=m.location_names.index)}"]
        p = prov["between"]
        lines.append(f"| {a} - {b} | {'sea lane' if m.LINK_SEA[li] else 'rail'} | "
                     f"{'default' if p == default else p} |")  # fmt: skip
    return lines


def components_template() -> str:
    """A components file with the shipped structure and every printed number blank (0), to type the printed ones
    in; the loader lists what is still missing or wrong."""
    text = resources.files("industry_env.games.age_of_industry.data").joinpath("components.toml").read_text("utf-8")
    return _blank_numbers(text, ("cost", "coal", "iron", "cubes", "income", "count", "repay"),
                          "Age of Industry (Treefrog Games 2010), printed components")


def map_template(name: str) -> str:
    """A map file with the shipped structure to correct from the printed map (names, spaces and links as
    reconstructed here; the provenance set to "printed")."""
    if name not in MAPS:
        raise ValueError(f"map {name!r}: one of {list(MAPS)}")
    text = resources.files("industry_env.games.age_of_industry.data").joinpath(f"{name}.toml").read_text("utf-8")
    return _blank_numbers(text, (), f"{name}, printed map")


def _blank_numbers(text: str, keys: tuple[str, ...], title: str) -> str:
    out = ["# A TEMPLATE: type the printed values in, mark what you typed as 'printed', then check it with",
           "#     industry-env board --game age_of_industry --components|--map THIS_FILE", "#"]  # fmt: skip
    in_meta = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            in_meta = stripped == "[meta]"
        key = stripped.split("=")[0].strip() if "=" in stripped else ""
        if in_meta and key == "name":
            line = f'name = "{title}"'
        elif in_meta and key == "provenance":
            line = 'provenance = "printed"'
        elif key in keys and not stripped.startswith("#"):
            line = f"{key} = 0  # type the printed number"
        elif stripped.startswith("provenance") or (not in_meta and "=" in stripped and line[:1] != " "
                                                     and key in ("cost", "coal", "iron", "cubes", "income",
                                                                 "counters", "level")
                                                     and False):  # fmt: skip
            pass
        out.append(line)
    return "\n".join(out) + "\n"


def write_template(path: str | Path, what: str = "components", overwrite: bool = False) -> Path:
    """Write a blank template (``what``: "components", "germany" or "new_england") to ``path`` atomically (a temporary
    name, then a rename); an existing file is never replaced unless ``overwrite``."""
    target = Path(path).expanduser()
    if target.exists() and not overwrite:
        raise FileExistsError(f"{target} exists: choose another path (nothing was written)")
    if what == "components":
        text = components_template()
    elif what in MAPS:
        text = map_template(what)
    else:
        raise ValueError(f"what={what!r}: 'components' or one of {list(MAPS)}")
    write_text_atomic(target, text)
    return target


def print_components(file: TextIO | None = None) -> None:
    """Print the components and both maps as tables, with the provenance of every number."""
    print(components_markdown(), end="", file=file or sys.stdout)


def print_rules(file: TextIO | None = None) -> None:
    """Print the rules as implemented with the rulings."""
    print(rules_text(), end="", file=file or sys.stdout)


def rules_text() -> str:
    """The rules as implemented with the rulings (the same text as docs/age-of-industry/rules.md)."""
    return resources.files("industry_env.games.age_of_industry.data").joinpath("rules.md").read_text("utf-8")


__all__ = ["components_markdown", "components_template", "map_markdown", "map_template", "print_components",
           "print_rules", "rules_text", "write_template"]  # fmt: skip
