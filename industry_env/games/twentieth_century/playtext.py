"""The words of 20th Century at the terminal (``industry-env play``): each choice with what it costs, what a move
did, a look-up of any tile of any nation or offer, the offers, the catastrophe, a nation's map and the final
scoring by source. Everything here is public (ruling 36): no text shows the seed, the stacks' order or a
face-down catastrophe."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import actions as A
from .components import CITY_NAMES, SIDES
from .geometry import WINDOW, local_components
from .render import render_text
from .rules import LAST_FULL_ROUND, consolation
from .state import SCORE_SOURCES

if TYPE_CHECKING:
    from .reference import Game

ROMAN = ("", "I", "II", "III", "IV", "V", "VI")
SCORE_WORDS = {"production": "production", "quality_of_life": "quality of life", "round_2_card": "round II card",
               "round_4_card": "round IV card", "land_tiles": "land tiles", "pollution": "pollution track",
               "coins": "coins ranking", "science": "science ranking"}  # fmt: skip
DECISIONS = {
    "lead": "you lead the land auction: put a tile up, or withdraw for the round",
    "open": "the opening bid on the tile put up", "bid": "raise, pass on this tile, or withdraw for the round",
    "tech": "you withdrew: buy one technology, or none", "catastrophe": "bid science on a catastrophe column",
    "attach_pick": "maintenance: which new tile to attach", "attach_cell": "maintenance: where to attach it",
    "attach_rotate": "maintenance: how to turn it",
    "citizen": "maintenance: which city of the new tile gets its citizen",
    "garbage": "maintenance: where a garbage cube goes", "use": "maintenance: use a technology, or 'done'",
    "use_target": "maintenance: the technology's target", "use_target2": "maintenance: the technology's second target",
    "bridge": "maintenance: where the bridge goes", "recycle": "production: remove a cube with a recycling centre, or "
    "'done'",
}  # fmt: skip


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def spoil(steps: int) -> str:
    """A catastrophe column's pollution: steps to the left on the pollution track."""
    return f"pollution -{steps}" if steps else "no pollution"


def city_text(city: Any) -> str:
    """A city's printed production: '2 coins 1 science', 'recycling centre'."""
    parts = [plural(v, w) if w == "coin" else f"{v} {w}" for v, w in
             zip((city.coins, city.science, city.vp), ("coin", "science", "VP"), strict=True) if v]  # fmt: skip
    if city.recycling:
        parts.append("recycling centre")
    return " ".join(parts) or "nothing"


def tile_name(game: Game, code: int) -> str:
    d = game.data
    return d.land[code].id if d.is_land(code) else d.technologies[code - len(d.land)].name


def tech_text(game: Game, t: int) -> str:
    """A technology: its name, what it does, what it costs at purchase besides the science."""
    tech = game.data.technologies[t]
    what = []
    for a in tech.abilities:
        word = a.kind.replace("_", " ")
        if a.bonus:
            word += f" +{a.bonus}"
        if a.cost:
            word += f" (costs {plural(a.cost, 'coin')} a use{f', {a.vp} VP' if a.vp else ''})"
        what.append(word)
    extra = []
    if tech.garbage:
        extra.append(f"+{plural(tech.garbage, 'garbage cube')}")
    if tech.pollution:
        extra.append(f"pollution {tech.pollution:+d}")
    return f"{tech.name} [{tech.id}]: {', '.join(what)}" + (f"; on purchase {', '.join(extra)}" if extra else "")


def land_text(game: Game, code: int) -> str:
    tile = game.data.land[code]
    cities = "; ".join(f"{CITY_NAMES[j]}: {city_text(c)}" for j, c in enumerate(tile.cities))
    return f"{tile.id} ({tile.stack}) cities {cities}"


def railed_sides(tile: Any, rotation: int, bridge: int = -1) -> str:
    sides = sorted({s for c in local_components(tile, rotation, bridge) for s in c.sides})
    return "".join(SIDES[s] for s in sides) or "none"


def choice_text(game: Game, action: int) -> str:
    """A choice with what it costs or does for the player to move."""
    p, ph, d = game.to_move, game.phase, game.data
    name, i = A.block_of(action)
    base = A.action_to_string(action)
    if name == "land" and ph == "lead":
        return f"{base}: put up {land_text(game, game.land_offer[i])} (opening bid at least {game.min_land_price()})"
    if name == "bid":  # ruling 19: 'bid +31' is 31 or more, and the bidder then says what to add
        adding = f", adding {i} to your bid of {game.high_bid}" if game.raising_own_bid() else ""
        more = ", then say what to add to it" if i == A.NUM_BIDS - 1 else ""
        return f"{game.action_to_string(action)}{adding}{more}, you have {game.coins[p]}"
    if name == "pass":
        return f"{base}: pass on this tile (you stay in the auction)"
    if name == "withdraw":
        comfort = "" if game.won[p] else f", {consolation(game.round)} coins' consolation"
        price = game.tech_price()
        return f"{base}: leave the auction for this round (then buy a technology for {price} science{comfort})"
    if name == "tech":
        return f"{base}: buy {tech_text(game, game.tech_offer[i])} for {game.tech_price()} science " \
               f"(you have {game.science[p]})"  # fmt: skip
    if name == "catastrophe":
        c, b = divmod(i, A.NUM_CAT_BIDS)
        g, pol = d.catastrophes[game.cat_current].columns[c]
        return f"{base}: {b} science on column {c} ({plural(g, 'cube')}, {spoil(pol)}) (you have {game.science[p]})"
    if name in ("land", "tech") and ph == "attach_pick":
        code = next(code for code, s, _ in game.pending[p] if s == i and d.is_land(code) == (name == "land"))
        return f"{base}: attach {tile_name(game, code)}"
    if name == "cell":
        x, y = A.cell_xy(i)
        here = game.grid_tile[p][i]
        what = f"{tile_name(game, here)}, {plural(game.grid_cubes[p][i], 'cube')}" if here >= 0 else "empty"
        verb = {
            "attach_cell": f"attach {tile_name(game, game.sel[0])} at" if ph == "attach_cell" else "",
            "garbage": "put the garbage cube on",
            "recycle": "recycle a cube from",
            "bridge": "bridge on",
        }
        return f"{base}: {verb.get(ph) or target_verb(game)} {x},{y} ({what})"
    if name == "rotate":
        tile = d.tile(game.sel[0])
        return f"{base}: turn it {90 * i} degrees (rails leave by {railed_sides(tile, i)})"
    if name == "city":
        cell, j = divmod(i, 3)
        x, y = A.cell_xy(cell)
        tile = d.tile(game.grid_tile[p][cell] if game.grid_tile[p][cell] >= 0 else game.sel[0])
        where = f"city {CITY_NAMES[j]} at {x},{y} ({city_text(tile.cities[j])})"
        return f"{base}: {where}" if ph == "citizen" else f"{base}: {target_verb(game)} {where}"
    if name == "use":
        h, k = divmod(i, A.MAX_ABILITIES)
        tech = d.technologies[game.techs[p][h]]
        a = tech.abilities[k]
        cost = f" (costs {plural(a.cost, 'coin')}{f', gives {a.vp} VP' if a.vp else ''})" if a.cost else ""
        return f"{base}: {tech.name}: {a.kind.replace('_', ' ')}{cost}"
    if name == "bridge":
        tile = d.tile(game.grid_tile[p][game.sel[2]])
        ends = "-".join(tile.bridges[i])
        return f"{base}: bridge from {ends} on {tile.id}"
    if name == "done":
        return {"tech": f"{base}: buy no technology", "use": f"{base}: end your maintenance",
                "recycle": f"{base}: end your recycling"}.get(ph, base)  # fmt: skip
    return base


# What a technology's target is, by the ability's kind and the step (first or second target).
TARGET_VERBS = {
    ("workers", 1): "a new citizen in", ("train", 1): "move the citizen of", ("train", 2): "to the free",
    ("garbage_truck", 1): "take a cube from", ("garbage_truck", 2): "put it on", ("bridge", 1): "a bridge on",
    ("separated_collection", 1): "remove a cube from", ("recycling", 1): "remove a cube from",
}  # fmt: skip


def target_verb(game: Game) -> str:
    """What the target of the technology in use is for ('take a cube from', 'a new citizen in')."""
    h, k = game.sel[:2]
    kind = game.ability(game.to_move, h, k).kind
    return TARGET_VERBS.get((kind, 2 if game.phase == "use_target2" else 1), "the target")


def offers_text(game: Game) -> str:
    """The land and technology offers with their prices, and the auction under way."""
    if game.is_over or game.round > LAST_FULL_ROUND:
        return "no offers: the auctions are over"
    lines = [f"land offer (round {ROMAN[game.round]}, opening bid at least {game.min_land_price()} coins):"]
    lines += [f"  land {s}: {land_text(game, t)}{'  <- up for auction' if s == game.auction_slot else ''}"
              for s, t in enumerate(game.land_offer) if t >= 0]  # fmt: skip
    if game.auction_slot >= 0 and game.high_bidder >= 0:
        lines.append(f"  high bid {game.high_bid} by player {game.high_bidder}")
    lines.append(f"technology offer (price {game.tech_price()} science):")
    lines += [f"  tech {s}: {tech_text(game, t)}" for s, t in enumerate(game.tech_offer) if t >= 0]
    out = [p for p in range(game.n) if game.withdrawn[p]]
    if out:
        lines.append(f"withdrawn this round: player {', '.join(map(str, out))}")
    return "\n".join(lines)


def catastrophe_text(game: Game) -> str:
    """The catastrophe card: its columns (the unused ones marked), the pawns and their bids."""
    if game.cat_current < 0 or game.is_over or game.round > LAST_FULL_ROUND:
        return "no catastrophe this round"
    d = game.data
    card = d.catastrophes[game.cat_current]
    used = d.columns_used(game.n)
    lines = [
        f"catastrophe {card.id} ({card.era}): one pawn a used column, bids in science from 0 to 25, each pays "
        "his bid and takes his column's cubes and pollution; the leftmost pawn's player leads the next auction"
    ]
    for c, (g, pol) in enumerate(card.columns):
        pawns = [f"player {p} bid {game.cat_bid[p]}" for p in range(game.n) if game.cat_col[p] == c]
        state = ", ".join(pawns) if c in used else "not used with this many players"
        lines.append(f"  column {c}: {plural(g, 'cube')}, {spoil(pol)}: {state or 'empty'}")
    return "\n".join(lines)


def nation_map(game: Game, p: int) -> str:
    """A nation as a map of cells (x across, y down): each tile's id, its cubes after a colon; '.' is empty."""
    cells = [c for c, code in enumerate(game.grid_tile[p]) if code >= 0]
    xs = [A.cell_xy(c)[0] for c in cells]
    ys = [A.cell_xy(c)[1] for c in cells]
    x0, x1 = max(0, min(xs) - 1), min(WINDOW - 1, max(xs) + 1)
    y0, y1 = max(0, min(ys) - 1), min(WINDOW - 1, max(ys) + 1)
    rows = ["     " + "".join(f"{x:^8}" for x in range(x0, x1 + 1))]
    for y in range(y0, y1 + 1):
        row = []
        for x in range(x0, x1 + 1):
            c = A.cell_index(x, y)
            code = game.grid_tile[p][c]
            if code < 0:
                row.append(f"{'.':^8}")
                continue
            label = game.data.tile(code).id if game.data.is_land(code) else tile_name(game, code)[:5]
            cubes = game.grid_cubes[p][c]
            row.append(f"{label + (f':{cubes}' if cubes else ''):^8}")
        rows.append(f"{y:>3}  " + "".join(row))
    return f"player {p}'s nation:\n" + "\n".join(rows)


def cell_info(game: Game, p: int, x: int, y: int) -> str:
    """Everything about one cell of player ``p``'s nation: its tile, cities, citizens, production, rails, bridge,
    cubes, and what its cities make now with the institutions' bonuses."""
    if not (0 <= x < WINDOW and 0 <= y < WINDOW):
        raise ValueError(f"cell {x},{y} is outside the nation's {WINDOW} x {WINDOW} window (0 to {WINDOW - 1})")
    c = A.cell_index(x, y)
    code = game.grid_tile[p][c]
    if code < 0:
        return f"player {p}'s {x},{y}: empty"
    d = game.data
    tile = d.tile(code)
    rot, bridge = game.grid_rot[p][c], game.grid_bridge[p][c]
    lines = [f"player {p}'s {x},{y}: " + (f"land tile {tile.id} ({tile.stack})" if d.is_land(code)
                                          else tech_text(game, code - len(d.land)))]  # fmt: skip
    lines.append(f"  turned {90 * rot} degrees, rails leave by {railed_sides(tile, rot, bridge)}; "
                 f"{plural(game.grid_cubes[p][c], 'garbage cube')}")  # fmt: skip
    if bridge >= 0:
        lines.append(f"  bridge placed: {'-'.join(tile.bridges[bridge])}")
    elif tile.bridges:
        lines.append(f"  bridge places: {', '.join('-'.join(b) for b in tile.bridges)}")
    for j, city in enumerate(tile.cities):
        busy = game.grid_citizens[p][c] >> j & 1
        made = game.city_production(p, c, j)
        now = f"makes {plural(made[0], 'coin')} {made[1]} science {made[2]} VP" if busy else "free (makes nothing)"
        lines.append(f"  city {CITY_NAMES[j]}: {city_text(city)}; {'citizen' if busy else 'no citizen'}, {now}")
    return "\n".join(lines)


def parse_info(game: Game, seat: int, rest: str) -> str:
    """'info X,Y [PLAYER]', 'info land N', 'info tech N': the look-up asked for; ValueError saying what is wrong."""
    words = rest.replace(", ", ",").split()
    if len(words) == 2 and words[0] in ("land", "tech") and words[1].isdigit():
        offer = game.land_offer if words[0] == "land" else game.tech_offer
        s = int(words[1])
        if not 0 <= s < len(offer) or offer[s] < 0:
            raise ValueError(f"info {rest}: no {words[0]} {s} in the offer (type 'offers')")
        return land_text(game, offer[s]) if words[0] == "land" else tech_text(game, offer[s])
    if words and "," in words[0] and len(words) <= 2:
        x, _, y = words[0].partition(",")
        p = seat
        if len(words) == 2:
            if not (words[1].isdigit() and int(words[1]) < game.n):
                raise ValueError(f"info {rest}: no player {words[1]!r} (players are 0 to {game.n - 1})")
            p = int(words[1])
        if x.isdigit() and y.isdigit():
            return cell_info(game, p, int(x), int(y))
    raise ValueError(f"info {rest!r}: say a cell and optionally a player ('info 4,4', 'info 5,3 2') or an offer "
                     "('info land 2', 'info tech 0')")  # fmt: skip


def holdings(game: Game, p: int) -> tuple:
    """What a move can change of a player, compared before and after."""
    return (game.coins[p], game.science[p], game.pollution[p], game.total_cubes(p), sum(game.vp[p].values()),
            len(game.techs[p]), len(game.pending[p]))  # fmt: skip


def effect_lines(start: Game, game: Game) -> list[str]:
    """What a move did to every player's holdings, one line a player whose holdings changed."""
    words = ("coins", "science", "pollution", "cubes", "VP", "technologies", "tiles to attach")
    out = []
    for p in range(game.n):
        a, b = holdings(start, p), holdings(game, p)
        diff = [f"{w} {x}->{y}" for w, x, y in zip(words, a, b, strict=True) if x != y]
        if diff:
            out.append(f"  -> player {p}: {', '.join(diff)}")
    if game.round != start.round:
        out.append(f"  round {ROMAN[game.round] if not game.is_over else 'VI'} "
                   f"{'begins' if not game.is_over else 'ends: game over'}")  # fmt: skip
    return out


def score_table(game: Game) -> str:
    """Every player's points by source, the total and the cubes (fewer cubes break a tie)."""
    n = game.n
    head = f"  {'':<26}" + "".join(f"{f'player {p}':>10}" for p in range(n))
    rows = [head]
    for s in SCORE_SOURCES:
        rows.append(f"  {SCORE_WORDS[s]:<26}" + "".join(f"{game.vp[p][s]:>10}" for p in range(n)))
    rows.append(f"  {'total':<26}" + "".join(f"{v:>10}" for v in game.scores()))
    rows.append(f"  {'cubes (fewer win a tie)':<26}" + "".join(f"{game.total_cubes(p):>10}" for p in range(n)))
    return "\n".join(rows)


def board_text(game: Game, seat: int) -> str:
    """The whole public position, then the person's nation as a map."""
    return render_text(game) + "\n" + nation_map(game, seat)
