#!/usr/bin/env python3
"""A Paint starter bot for Botarena, <%over%>, in plain Python 3 (standard library only).

<%intro%>

The messages (see docs/games/paint.md in the botarena package). Squares are [row, column], row 0 on top:
  {"player_id":"alice"}                                   -> answer {"ready": true}
  {"width":10,"height":10,"player_positions":{"alice":[3,7],"bob":[6,2]},"colors":[[null,...],...],
   "previous_actions":[],"turns_left":100}                -> answer {"turns_left":100,"type":"walk","direction":[-1,1]}
Copy `turns_left` into every answer: it pairs the answer with its state.
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Set, Tuple

NAME = "python-starter"
Square = Tuple[int, int]
"""A square (row, column); on the wire [i, j]."""
DIRECTIONS: List[Square] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
"""The 8 directions [di, dj]; [0, 1] is one column to the right, [1, 0] one row down."""


@dataclass
class Hello:
    """The first line. Answer {"ready": true} within 5 s."""

    player_id: str
    """<%doc:init.player_id%> Your colour in `colors` and your key in `player_positions`."""


@dataclass
class State:
    """The state, every turn, to every player at once. Answer within 500 ms."""

    width: int
    """<%doc:turn.width%>"""
    height: int
    """<%doc:turn.height%>"""
    player_positions: Dict[str, Square]
    """<%doc:turn.player_positions%> [row, column]."""
    colors: List[List[Optional[str]]]
    """<%doc:turn.colors%>"""
    previous_actions: List[dict]
    """<%doc:turn.previous_actions%> Player id -> {"type": ..., "direction": [di, dj]}."""
    turns_left: int
    """<%doc:turn.turns_left%>"""
    obstacles: Set[Square] = field(default_factory=set)
    """<%doc:turn.obstacles%> Nobody can stand on, paint or shoot through them."""

    @staticmethod
    def parse(message: dict) -> "State":
        return State(
            width=int(message["width"]),
            height=int(message["height"]),
            player_positions={p: (int(s[0]), int(s[1])) for p, s in message["player_positions"].items()},
            colors=message["colors"],
            previous_actions=message.get("previous_actions", []),
            turns_left=message["turns_left"],
            obstacles={(int(s[0]), int(s[1])) for s in message.get("obstacles", [])},
        )

    def on_board(self, square: Square) -> bool:
        i, j = square
        return 0 <= i < self.height and 0 <= j < self.width and square not in self.obstacles


def log(text: str) -> None:
    """<%log-doc%>"""
    print(f"[{NAME}] {text}", file=sys.stderr, flush=True)


def choose_action(me: str, state: State) -> Tuple[str, Square]:
    """Returns (type, direction): "walk" or "shoot", and one of the 8 directions."""
    # ---- your strategy goes here -------------------------------------------------------------
    # Walk onto a free neighbouring square that is not our colour yet, preferring one with many such
    # squares around it. With none, shoot along the longest trail of our colour behind us (range grows
    # with that trail), toward squares that are not ours.
    i, j = state.player_positions[me]
    others = {pos for pid, pos in state.player_positions.items() if pid != me}

    def fresh(square: Square) -> bool:
        return state.on_board(square) and state.colors[square[0]][square[1]] != me

    walks = []
    for di, dj in DIRECTIONS:
        target = (i + di, j + dj)
        if state.on_board(target) and target not in others and fresh(target):
            around = sum(fresh((target[0] + a, target[1] + b)) for a, b in DIRECTIONS)
            walks.append((around, (di, dj)))
    if walks:
        return "walk", max(walks)[1]

    def trail_behind(d: Square) -> int:
        n, (a, b) = 0, (i, j)
        while state.on_board((a, b)) and state.colors[a][b] == me:
            n, a, b = n + 1, a - d[0], b - d[1]
        return n

    shots = [(fresh((i + di, j + dj)), trail_behind((di, dj)), (di, dj)) for di, dj in DIRECTIONS]
    return "shoot", max(shots)[2]
    # -------------------------------------------------------------------------------------------


class Bot:
    def __init__(self) -> None:
        self.me: Optional[str] = None

    def handle(self, message: dict) -> dict:
        """One message in, one answer out."""
        if "player_id" in message:
            hello = Hello(player_id=str(message["player_id"]))
            self.me = hello.player_id
            log(f"I am {self.me}")
            return {"ready": True}
        state = State.parse(message)
        kind, (di, dj) = choose_action(self.me, state)
        log(f"turns_left {state.turns_left}: {kind} [{di}, {dj}]")
        return {"turns_left": state.turns_left, "type": kind, "direction": [di, dj]}


BOT = Bot()
"""The one bot of this run: it remembers its id from the hello for every turn."""


def handle(message: dict) -> dict:
    """One message in, one answer out."""
    return BOT.handle(message)
