#!/usr/bin/env python3
"""A Tron starter bot for Botarena, <%over%>, in plain Python 3 (standard library only).

<%intro%>

The messages (see docs/games/tron.md in the botarena package):
  {"game-id":"example","action":"init","game":"tron","board":"","players":2,"player-index":0}
  {"game-id":"example","action":"play-turn","game":"tron","board":[[[1,91]],[[49,34]]],"player-index":0,"players":2}
On a grid other than 100 x 100 both messages also carry "width" and "height".
"""
from __future__ import annotations

import json
import sys
from collections import deque
from dataclasses import dataclass
from typing import List, Set, Tuple

NAME = "python-starter"
Cell = Tuple[int, int]
"""A cell (x, y); on the wire an array [x, y]."""

# The four moves and where they go. The grid has no "up": y+ is drawn downwards.
MOVES = {"x+": (1, 0), "x-": (-1, 0), "y+": (0, 1), "y-": (0, -1)}


@dataclass
class Init:
    """The `init` message, sent once before the first lap. Its answer is read but not used."""

    game_id: str
    """<%doc:init.game-id%> Opaque: the same in every message of the match."""
    players: int
    """<%doc:init.players%> From 2 to 12."""
    player_index: int
    """<%doc:init.player-index%>"""
    width: int
    """<%doc:init.width%> 100 when the message leaves it out."""
    height: int
    """<%doc:init.height%> 100 when the message leaves it out."""

    @staticmethod
    def parse(message: dict) -> "Init":
        return Init(
            game_id=str(message["game-id"]),
            players=int(message["players"]),
            player_index=int(message["player-index"]),
            width=int(message.get("width", 100)),
            height=int(message.get("height", 100)),
        )


@dataclass
class PlayTurn:
    """The `play-turn` message, sent each lap to every living bot. Answer {"play": "x+"|"x-"|"y+"|"y-"}."""

    game_id: str
    """As in `init`."""
    board: List[List[Cell]]
    """<%doc:turn.board%> Each trail HEAD FIRST: board[player_index][0] is your head. A dead bot's trail is []."""
    player_index: int
    """<%doc:turn.player-index%>"""
    players: int
    """<%doc:turn.players%>"""
    width: int
    """<%doc:turn.width%> 100 when the message leaves it out."""
    height: int
    """<%doc:turn.height%> 100 when the message leaves it out."""

    @staticmethod
    def parse(message: dict) -> "PlayTurn":
        return PlayTurn(
            game_id=str(message["game-id"]),
            board=[[(int(c[0]), int(c[1])) for c in trail] for trail in message["board"]],
            player_index=int(message["player-index"]),
            players=int(message["players"]),
            width=int(message.get("width", 100)),
            height=int(message.get("height", 100)),
        )

    @property
    def head(self) -> Cell:
        return self.board[self.player_index][0]


def log(text: str) -> None:
    """<%log-doc%>"""
    print(f"[{NAME}] {text}", file=sys.stderr, flush=True)


def safe_moves(turn: PlayTurn) -> List[str]:
    """The moves that neither leave the grid nor run into any trail (heads and tails included)."""
    taken = {cell for trail in turn.board for cell in trail}
    x, y = turn.head
    return [m for m, (dx, dy) in MOVES.items()
            if 0 <= x + dx < turn.width and 0 <= y + dy < turn.height and (x + dx, y + dy) not in taken]


def room(start: Cell, taken: Set[Cell], width: int, height: int, limit: int = 3000) -> int:
    """How many free cells a flood fill reaches from `start` (counting stops at `limit`, to stay fast)."""
    seen = {start}
    queue = deque([start])
    while queue and len(seen) < limit:
        x, y = queue.popleft()
        for dx, dy in MOVES.values():
            nxt = (x + dx, y + dy)
            if 0 <= nxt[0] < width and 0 <= nxt[1] < height and nxt not in taken and nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return len(seen)


def choose_move(turn: PlayTurn) -> str:
    """Returns the move: one that stays on the grid and off every trail whenever there is one."""
    moves = safe_moves(turn)
    if not moves:
        return "x+"  # boxed in: every move loses, any answer will do
    # ---- your strategy goes here -------------------------------------------------------------
    # This one keeps away from cells another head could also move to (a head-on kills both), then
    # picks the move with the most room to reach, so it does not wall itself in.
    taken = {cell for trail in turn.board for cell in trail}
    x, y = turn.head
    contested = {(hx + dx, hy + dy) for i, trail in enumerate(turn.board) if trail and i != turn.player_index
                 for (hx, hy) in [trail[0]] for dx, dy in MOVES.values()}

    def score(move: str) -> Tuple[int, int]:
        dx, dy = MOVES[move]
        target = (x + dx, y + dy)
        return (room(target, taken, turn.width, turn.height) if target not in contested else 0,
                room(target, taken, turn.width, turn.height))

    return max(moves, key=score)
    # -------------------------------------------------------------------------------------------


def handle(message: dict) -> dict:
    """One message in, one answer out."""
    if message.get("action") == "init":
        init = Init.parse(message)
        log(f"match {init.game_id}: slot {init.player_index} of {init.players}, grid {init.width}x{init.height}")
        return {"name": NAME}
    turn = PlayTurn.parse(message)
    move = choose_move(turn)
    log(f"at {turn.head}: {move}")
    return {"play": move}
