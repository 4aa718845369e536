#!/usr/bin/env python3
# Generated from starters/src/python/games/tictactoe/bot.py + python/shims/json-http.txt by npm run generate:starters: edit those, not this file.
"""A tic-tac-toe starter bot for Botarena, as a web service (HTTP), in plain Python 3 (standard library only).

Run it with `python3 bot.py --port 8000`, then name `http://127.0.0.1:8000/` as a bot in `botarena play`.
The arena POSTs each message as a JSON body; the response body is the answer. The server listens on
127.0.0.1 and prints one line, `listening on http://127.0.0.1:PORT/`, on stdout once it accepts
connections. Debug output goes to stderr, the terminal you started the bot in.

The messages (see docs/games/tictactoe.md in the botarena package):
  {"game-id":"example","action":"init","game":"tictactoe","players":2,"board":"","player-index":0}
  {"game-id":"example","action":"play-turn","game":"tictactoe","players":2,"board":{"0-0":"",...},"you":"X","player-index":0}
"""
from __future__ import annotations

import argparse
import errno
import json
import sys
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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
    """The match id, as text. Opaque: the same in every message of the match."""
    player_index: int
    """Your seat: 0 plays X and moves first, 1 plays O."""

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
    """The mark you play. "X" (seat 0) or "O" (seat 1)."""
    player_index: int
    """Your seat: 0 is X, 1 is O."""

    @staticmethod
    def parse(message: dict) -> "PlayTurn":
        return PlayTurn(
            game_id=str(message["game-id"]),
            board=dict(message["board"]),
            you=message["you"],
            player_index=int(message["player-index"]),
        )


def log(text: str) -> None:
    """Debug output goes to stderr: stdout carries only the `listening on` line that tools wait for."""
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
