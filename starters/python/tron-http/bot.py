#!/usr/bin/env python3
# Generated from starters/src/python/games/tron/bot.py + python/shims/json-http.txt by npm run generate:starters: edit those, not this file.
"""A Tron starter bot for Botarena, as a web service (HTTP), in plain Python 3 (standard library only).

Run it with `python3 bot.py --port 8000`, then name `http://127.0.0.1:8000/` as a bot in `botarena play`.
The arena POSTs each message as a JSON body; the response body is the answer. The server listens on
127.0.0.1 and prints one line, `listening on http://127.0.0.1:PORT/`, on stdout once it accepts
connections. Debug output goes to stderr, the terminal you started the bot in.

The messages (see docs/games/tron.md in the botarena package):
  {"game-id":"example","action":"init","game":"tron","board":"","players":2,"player-index":0}
  {"game-id":"example","action":"play-turn","game":"tron","board":[[[1,91]],[[49,34]]],"player-index":0,"players":2}
On a grid other than 100 x 100 both messages also carry "width" and "height".
"""
from __future__ import annotations

import argparse
import errno
import json
import sys
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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
    """The match id, as text. Opaque: the same in every message of the match."""
    players: int
    """How many bots play. From 2 to 12."""
    player_index: int
    """Your seat, 0 to players-1."""
    width: int
    """Grid width (x is 0 to width-1); only present off the 100×100 grid. 100 when the message leaves it
    out."""
    height: int
    """Grid height (y is 0 to height-1); only present off the 100×100 grid. 100 when the message leaves it
    out."""

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
    """One trail per seat, seat 0 first. Each trail HEAD FIRST: board[player_index][0] is your head. A dead
    bot's trail is []."""
    player_index: int
    """Your seat: your trail is board[player-index]."""
    players: int
    """How many bots play, dead ones included."""
    width: int
    """Grid width; only present off the 100×100 grid. 100 when the message leaves it out."""
    height: int
    """Grid height; only present off the 100×100 grid. 100 when the message leaves it out."""

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
    """Debug output goes to stderr: stdout carries only the `listening on` line that tools wait for."""
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
