#!/usr/bin/env python3
"""A tic-tac-toe starter bot for Botarena, <%over%>, in plain Python 3 (standard library only).

<%intro%>

The messages (see docs/games/tictactoe.md in the botarena package):
  {"game-id":"example","action":"init","game":"tictactoe","players":2,"board":"","player-index":0}
  {"game-id":"example","action":"play-turn","game":"tictactoe","players":2,"board":{"0-0":"",...},"you":"X","player-index":0}
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Dict, List, Optional

NAME = "python-starter"

# The nine cells, named "row-col" as on the wire.
CELLS = [f"{r}-{c}" for r in range(3) for c in range(3)]
LINES = [
    ("0-0", "0-1", "0-2"), ("1-0", "1-1", "1-2"), ("2-0", "2-1", "2-2"),  # rows
    ("0-0", "1-0", "2-0"), ("0-1", "1-1", "2-1"), ("0-2", "1-2", "2-2"),  # columns
    ("0-0", "1-1", "2-2"), ("0-2", "1-1", "2-0"),  # diagonals
]


@dataclass
class Init:
    """The `init` message, sent once before the first turn. Its answer is read but not used."""

    game_id: str
    """<%doc:init.game-id%> Opaque: the same in every message of the match."""
    player_index: int
    """<%doc:init.player-index%>"""

    @staticmethod
    def parse(message: dict) -> "Init":
        return Init(game_id=str(message["game-id"]), player_index=int(message["player-index"]))


@dataclass
class PlayTurn:
    """The `play-turn` message, sent each time it is your turn. Answer {"play": "row-col"}."""

    game_id: str
    """As in `init`."""
    board: Dict[str, str]
    """Nine keys "0-0" .. "2-2" (row first); each value "" (empty), "X" or "O"."""
    you: str
    """<%doc:turn.you%> "X" (seat 0) or "O" (seat 1)."""
    player_index: int
    """<%doc:turn.player-index%>"""

    @staticmethod
    def parse(message: dict) -> "PlayTurn":
        return PlayTurn(
            game_id=str(message["game-id"]),
            board=dict(message["board"]),
            you=message["you"],
            player_index=int(message["player-index"]),
        )


def log(text: str) -> None:
    """<%log-doc%>"""
    print(f"[{NAME}] {text}", file=sys.stderr, flush=True)


def empty_cells(board: Dict[str, str]) -> List[str]:
    return [cell for cell in CELLS if board.get(cell, "") == ""]


def completing(board: Dict[str, str], mark: str) -> Optional[str]:
    """An empty cell that completes a line of three `mark`, or None."""
    for line in LINES:
        marks = [board.get(cell, "") for cell in line]
        if marks.count(mark) == 2 and marks.count("") == 1:
            return line[marks.index("")]
    return None


def choose_move(turn: PlayTurn) -> str:
    """Returns the cell to play: always an empty cell of the board."""
    # ---- your strategy goes here -------------------------------------------------------------
    # This one wins when it can, blocks when it must, then takes the centre, a corner, or any cell.
    board, me = turn.board, turn.you
    other = "O" if me == "X" else "X"
    for cell in (completing(board, me), completing(board, other)):
        if cell is not None:
            return cell
    free = empty_cells(board)
    for cell in ["1-1", "0-0", "0-2", "2-0", "2-2"]:
        if cell in free:
            return cell
    return free[0]
    # -------------------------------------------------------------------------------------------


def handle(message: dict) -> dict:
    """One message in, one answer out."""
    if message.get("action") == "init":
        init = Init.parse(message)
        log(f"match {init.game_id}: I am slot {init.player_index}")
        return {"name": NAME}
    turn = PlayTurn.parse(message)
    cell = choose_move(turn)
    log(f"playing {cell} as {turn.you}")
    return {"play": cell}
