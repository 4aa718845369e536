#!/usr/bin/env python3
# Generated from starters/src/python/games/connect4/bot.py + python/shims/json-http.txt by npm run generate:starters: edit those, not this file.
"""A Connect Four starter bot for Botarena, as a web service (HTTP), in plain Python 3 (standard library only).

Run it with `python3 bot.py --port 8000`, then name `http://127.0.0.1:8000/` as a bot in `botarena play`.
The arena POSTs each message as a JSON body; the response body is the answer. The server listens on
127.0.0.1 and prints one line, `listening on http://127.0.0.1:PORT/`, on stdout once it accepts
connections. Debug output goes to stderr, the terminal you started the bot in.

The messages (see docs/games/connect4.md in the botarena package; the wire calls the game "connectfour"):
  {"game-id":"example","action":"init","game":"connectfour","players":2,"board":"","player-index":0}
  {"game-id":"example","action":"play-turn","game":"connectfour","players":2,"opponent":"random","you":"X",
   "board":[["","","","","","",""], ...6 rows...],"player-index":0}
"""
from __future__ import annotations

import argparse
import errno
import json
import sys
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import List, Optional

NAME = "python-starter"
ROWS, COLS = 6, 7


@dataclass
class Init:
    """The `init` message, sent once before the first turn. Its answer is read but not used."""

    game_id: str
    """The match id, as text. Opaque: the same in every message of the match."""
    player_index: int
    """Your seat: 0 plays X and moves first, 1 plays O."""

    @staticmethod
    def parse(message: dict) -> "Init":
        return Init(game_id=str(message["game-id"]), player_index=int(message["player-index"]))


@dataclass
class PlayTurn:
    """The `play-turn` message, sent each time it is your turn. Answer {"play": column 0..6}."""

    game_id: str
    """As in `init`."""
    board: List[List[str]]
    """Six rows, bottom row first. 6 rows of 7 cells, board[row][col]; row 0 is the BOTTOM row. Each cell "",
    "X" or "O"."""
    you: str
    """The mark you play. "X" (seat 0) or "O" (seat 1)."""
    opponent: str
    """The other bot's display name (may be empty)."""
    player_index: int
    """Your seat: 0 is X, 1 is O."""

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
    """Debug output goes to stderr: stdout carries only the `listening on` line that tools wait for."""
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


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000; 0 picks a free one)")
    return parser.parse_args()


class Handler(BaseHTTPRequestHandler):
    """Each message is a POST whose body is the JSON; the response body is the answer."""

    # HTTP/1.1 keeps the connection open between messages (every response says its Content-Length), as
    # the arena expects; http.server's default, HTTP/1.0, closes it after each answer.
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:  # noqa: N802 (the name http.server expects)
        length = int(self.headers.get("Content-Length") or 0)
        try:
            answer = handle(json.loads(self.rfile.read(length) or b"null"))
            status = 200
        except Exception as err:  # a bug should show in the log, not hang the match
            log(f"error: {err!r}")
            answer, status = {"error": str(err)}, 500
        body = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args) -> None:  # noqa: A002
        pass  # http.server would log every request on stderr; keep the bot's log for our own lines


def main() -> None:
    args = parse_args()
    try:
        server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)  # listening from here on
    except OSError as err:
        # One line, not a traceback: most often another program (or this bot, still running) holds the port.
        reason = "the port is taken (is this bot already running?): stop what holds it, or pick another port with --port N" if err.errno == errno.EADDRINUSE else (err.strerror or str(err))
        sys.exit(f"cannot listen on 127.0.0.1:{args.port}: {reason}")
    # Exactly this one line on stdout: tools (and the starter's checks) wait for it.
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
