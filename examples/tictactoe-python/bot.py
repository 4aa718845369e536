#!/usr/bin/env python3
"""A tic-tac-toe bot for Botarena over stdio, in plain Python 3.

Botarena writes one JSON message per line on stdin and reads one JSON answer per line on stdout.
The messages are botsarena's, field for field. Anything written to stderr lands in the bot's log
(`botarena play ... --log`).
"""
import json
import random
import sys

LINES = [
    ("0-0", "0-1", "0-2"), ("1-0", "1-1", "1-2"), ("2-0", "2-1", "2-2"),
    ("0-0", "1-0", "2-0"), ("0-1", "1-1", "2-1"), ("0-2", "1-2", "2-2"),
    ("0-0", "1-1", "2-2"), ("0-2", "1-1", "2-0"),
]


def completing(board, mark):
    """A cell that completes a line of `mark`, or None."""
    for line in LINES:
        marks = [board[c] for c in line]
        if marks.count(mark) == 2 and marks.count("") == 1:
            return line[marks.index("")]
    return None


def choose(board, me):
    other = "O" if me == "X" else "X"
    empty = [c for c, v in board.items() if v == ""]
    for cell in (completing(board, me), completing(board, other)):  # win, else block
        if cell:
            return cell
    if board["1-1"] == "":
        return "1-1"
    corners = [c for c in ("0-0", "0-2", "2-0", "2-2") if board[c] == ""]
    return random.choice(corners or empty)


for line in sys.stdin:
    message = json.loads(line)
    if message["action"] == "init":
        answer = {"name": "python-example"}
    else:
        cell = choose(message["board"], message["you"])
        print(f"turn as {message['you']}: playing {cell}", file=sys.stderr, flush=True)
        answer = {"play": cell}
    print(json.dumps(answer), flush=True)
