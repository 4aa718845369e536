#!/usr/bin/env python3
# Generated from starters/src/python/games/battleship/bot.py + python/shims/json-stdio.txt by npm run generate:starters: edit those, not this file.
"""A Battleship starter bot for Botarena, over stdio, in plain Python 3 (standard library only).

The arena starts this program once per match. Each message is one line of JSON on stdin; the bot
answers each with one line of JSON on stdout (flushed at once). Stdout is the wire: print nothing else
there. Debug output goes to stderr, which the arena keeps in the bot's log (`botarena play ... --log`).

The messages (see docs/games/battleship.md in the botarena package). The numbers in `board` are STRINGS:
  {"game-id":2971996522,"game":"battleship","action":"init","players":2,"player-index":0,
   "board":{"opponent":"random","width":"10","height":"10","ship1":"0","ship2":"1",...,"ship6":"0"}}
  {"game":"Battleship","game-id":2971996522,"action":"play-turn","player-index":0,
   "board":{...the same nine fields...,"your_strikes":[{"target":"0,4","result":"hit"}],"his_strikes":[]}}
The `init` answer is your fleet ({"boats": ["x1,y1-x2,y2", ...]}); a bad fleet loses the game.
"""
from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

NAME = "python-starter"
Cell = Tuple[int, int]
"""A cell (x, y); on the wire the string "x,y"."""


@dataclass
class Settings:
    """The match settings, the `board` object of both messages (sent as strings, read here as ints)."""

    opponent: str
    """The other seat's display name."""
    width: int
    """Grid width: x is 0 .. width - 1."""
    height: int
    """Grid height: y is 0 .. height - 1."""
    ships: Dict[int, int]
    """Ship length -> how many ships of that length (from ship1 .. ship6)."""

    @staticmethod
    def parse(board: dict) -> "Settings":
        return Settings(
            opponent=str(board.get("opponent", "")),
            width=int(board["width"]),
            height=int(board["height"]),
            ships={n: int(board.get(f"ship{n}", 0)) for n in range(1, 7)},
        )


@dataclass
class Strike:
    """One shot fired: its target and what it did ("" a miss, "hit", or "hit and sunk")."""

    target: Cell
    result: str

    @staticmethod
    def parse(strike: dict) -> "Strike":
        x, y = strike["target"].split(",")
        return Strike(target=(int(x), int(y)), result=strike["result"])


@dataclass
class Init:
    """The `init` message. Answer {"boats": [...]} with your fleet."""

    game_id: int
    """The match id (a number here): opaque."""
    player_index: int
    """Your seat: 0 (P1) shoots first. 1 is P2."""
    settings: Settings

    @staticmethod
    def parse(message: dict) -> "Init":
        return Init(game_id=message["game-id"], player_index=int(message["player-index"]), settings=Settings.parse(message["board"]))


@dataclass
class PlayTurn:
    """The `play-turn` message, each time it is your turn to shoot. Answer {"play": "x,y"}."""

    game_id: int
    """The same number as in the init message."""
    player_index: int
    """Your seat."""
    settings: Settings
    your_strikes: List[Strike] = field(default_factory=list)
    """Every shot you fired, oldest first."""
    his_strikes: List[Strike] = field(default_factory=list)
    """Every shot the other bot fired at your fleet, oldest first."""

    @staticmethod
    def parse(message: dict) -> "PlayTurn":
        board = message["board"]
        return PlayTurn(
            game_id=message["game-id"],
            player_index=int(message["player-index"]),
            settings=Settings.parse(board),
            your_strikes=[Strike.parse(s) for s in board.get("your_strikes", [])],
            his_strikes=[Strike.parse(s) for s in board.get("his_strikes", [])],
        )


def log(text: str) -> None:
    """Debug output goes to stderr: stdout is the wire, and the arena shows stderr with --log."""
    print(f"[{NAME}] {text}", file=sys.stderr, flush=True)


def place_fleet(settings: Settings, rng: Optional[random.Random] = None) -> List[str]:
    """A valid fleet: every ship on the grid, no two sharing a cell, exactly the configured counts.

    Longest ships first, each at a random free place; when a ship does not fit, it backtracks, so it
    finds a fleet whenever one exists.
    """
    rng = rng or random.Random()
    lengths = sorted((n for n, count in settings.ships.items() for _ in range(count)), reverse=True)
    w, h = settings.width, settings.height
    used: Set[Cell] = set()
    fleet: List[Tuple[Cell, Cell]] = []

    def places(n: int) -> List[List[Cell]]:
        options = []
        for x in range(w):
            for y in range(h):
                if x + n <= w:
                    options.append([(x + k, y) for k in range(n)])
                if n > 1 and y + n <= h:
                    options.append([(x, y + k) for k in range(n)])
        rng.shuffle(options)
        return options

    def fit(i: int) -> bool:
        if i == len(lengths):
            return True
        for cells in places(lengths[i]):
            if used.isdisjoint(cells):
                used.update(cells)
                fleet.append((cells[0], cells[-1]))
                if fit(i + 1):
                    return True
                fleet.pop()
                used.difference_update(cells)
        return False

    if not fit(0):
        raise ValueError("no fleet fits this grid")
    return [f"{a[0]},{a[1]}-{b[0]},{b[1]}" for a, b in fleet]


def choose_shot(turn: PlayTurn) -> Cell:
    """Returns the cell to shoot: on the grid, and never one fired at before while any is left."""
    w, h = turn.settings.width, turn.settings.height
    fired = {s.target for s in turn.your_strikes}
    fresh = [(x, y) for y in range(h) for x in range(w) if (x, y) not in fired]
    if not fresh:
        return (0, 0)  # every cell was fired at (only with a turn cap); a repeat shot is still legal
    # ---- your strategy goes here -------------------------------------------------------------
    # Target: next to a hit of a ship not sunk yet (hits before the last "hit and sunk" are taken to
    # belong to that ship, a rough guess). Hunt: a checkerboard pattern, as every ship is 2+ long
    # by default. Then any cell not fired at.
    last_sunk = max((i for i, s in enumerate(turn.your_strikes) if s.result == "hit and sunk"), default=-1)
    hits = [s.target for s in turn.your_strikes[last_sunk + 1:] if s.result == "hit"]
    for x, y in reversed(hits):
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < h and (nx, ny) not in fired:
                return (nx, ny)
    checker = [c for c in fresh if (c[0] + c[1]) % 2 == 0]
    return random.choice(checker or fresh)
    # -------------------------------------------------------------------------------------------


def handle(message: dict) -> dict:
    """One message in, one answer out."""
    if message.get("action") == "init":
        init = Init.parse(message)
        boats = place_fleet(init.settings)
        log(f"match {init.game_id}: slot {init.player_index}, fleet {boats}")
        return {"name": NAME, "boats": boats}
    turn = PlayTurn.parse(message)
    x, y = choose_shot(turn)
    log(f"shot {len(turn.your_strikes) + 1}: {x},{y}")
    return {"play": f"{x},{y}"}


def main() -> None:
    for line in sys.stdin:  # ends when the arena closes stdin at the end of the match
        if not line.strip():
            continue
        try:
            answer = handle(json.loads(line))
        except Exception as err:  # a bug should show in the log, not hang the match
            log(f"error: {err!r}")
            answer = {}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
