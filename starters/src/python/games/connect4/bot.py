#!/usr/bin/env python3
"""A Connect Four starter bot for Botarena, <%over%>, in plain Python 3 (standard library only).

<%intro%>

The messages (see docs/games/connect4.md in the botarena package; the wire calls the game "connectfour"):
  {"game-id":"example","action":"init","game":"connectfour","players":2,"board":"","player-index":0}
  {"game-id":"example","action":"play-turn","game":"connectfour","players":2,"opponent":"random","you":"X",
   "board":[["","","","","","",""], ...6 rows...],"player-index":0}
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import List, Optional

NAME = "python-starter"
ROWS, COLS = 6, 7


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
    """The `play-turn` message, sent each time it is your turn. Answer {"play": column 0..6}."""

    game_id: str
    """As in `init`."""
    board: List[List[str]]
    """<%doc:turn.board%> 6 rows of 7 cells, board[row][col]; row 0 is the BOTTOM row. Each cell "", "X" or "O"."""
    you: str
    """<%doc:turn.you%> "X" (seat 0) or "O" (seat 1)."""
    opponent: str
    """<%doc:turn.opponent%>"""
    player_index: int
    """<%doc:turn.player-index%>"""

    @staticmethod
    def parse(message: dict) -> "PlayTurn":
        return PlayTurn(
            game_id=str(message["game-id"]),
            board=[list(row) for row in message["board"]],
            you=message["you"],
            opponent=str(message.get("opponent", "")),
            player_index=int(message["player-index"]),
        )


def log(text: str) -> None:
    """<%log-doc%>"""
    print(f"[{NAME}] {text}", file=sys.stderr, flush=True)


def legal_columns(board: List[List[str]]) -> List[int]:
    """The columns whose top cell (row 5) is empty."""
    return [c for c in range(COLS) if board[ROWS - 1][c] == ""]


def drop(board: List[List[str]], col: int, mark: str) -> Optional[List[List[str]]]:
    """The board after dropping `mark` into `col`, or None when the column is full."""
    for row in range(ROWS):
        if board[row][col] == "":
            after = [list(r) for r in board]
            after[row][col] = mark
            return after
    return None


def wins(board: List[List[str]], mark: str) -> bool:
    """Whether `mark` has four in a row anywhere."""
    for r in range(ROWS):
        for c in range(COLS):
            if board[r][c] != mark:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                if all(0 <= r + k * dr < ROWS and 0 <= c + k * dc < COLS and board[r + k * dr][c + k * dc] == mark for k in range(4)):
                    return True
    return False


def choose_move(turn: PlayTurn) -> int:
    """Returns the column to play: always a column that is not full."""
    # ---- your strategy goes here -------------------------------------------------------------
    # This one wins at once when it can, blocks the other bot's immediate win, avoids drops that let
    # the other bot win on top of them, and otherwise prefers the central columns.
    board, me = turn.board, turn.you
    other = "O" if me == "X" else "X"
    legal = legal_columns(board)
    for col in legal:
        if wins(drop(board, col, me), me):
            return col
    for col in legal:
        if wins(drop(board, col, other), other):
            return col

    def safe(col: int) -> bool:
        after = drop(board, col, me)
        return not any(wins(drop(after, c, other), other) for c in legal_columns(after))

    by_centre = sorted(legal, key=lambda c: abs(c - COLS // 2))
    return next((c for c in by_centre if safe(c)), by_centre[0])
    # -------------------------------------------------------------------------------------------


def handle(message: dict) -> dict:
    """One message in, one answer out."""
    if message.get("action") == "init":
        init = Init.parse(message)
        log(f"match {init.game_id}: I am slot {init.player_index}")
        return {"name": NAME}
    turn = PlayTurn.parse(message)
    col = choose_move(turn)
    log(f"dropping into column {col} as {turn.you}")
    return {"play": col}
