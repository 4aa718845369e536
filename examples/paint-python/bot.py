#!/usr/bin/env python3
"""A paint bot for Botarena over stdio, in plain Python 3 (no packages).

`run` below does what the reference Python SDK helper did: the first line is the hello
({"player_id": "alice"}), answered with {"ready": true}; every later line is the game state, answered
with the bot's move plus the state's turns_left copied in (the nonce that pairs answers with states).
Anything written to stderr lands in the bot's log (`botarena play ... --log`).
"""
import json
import random
import sys

DIRECTIONS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]


def run(bot_class):
    hello = sys.stdin.readline()
    if not hello:
        return
    bot = bot_class(json.loads(hello)["player_id"])
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        state = json.loads(line)
        move = bot.next_move(state)
        print(json.dumps(dict(turns_left=state["turns_left"], **move)), flush=True)


class Walker:
    """Walks onto squares that are not ours yet, preferring ones next to more of them."""

    def __init__(self, player_id):
        self.player_id = player_id

    def next_move(self, state):
        height, width, colors = state["height"], state["width"], state["colors"]
        i, j = state["player_positions"][self.player_id]
        taken = {tuple(p) for p in state["player_positions"].values()}

        def fresh(a, b):
            return 0 <= a < height and 0 <= b < width and colors[a][b] != self.player_id

        options = []
        for di, dj in DIRECTIONS:
            a, b = i + di, j + dj
            if 0 <= a < height and 0 <= b < width and (a, b) not in taken:
                score = 10 * fresh(a, b) + sum(fresh(a + x, b + y) for x, y in DIRECTIONS)
                options.append((score, random.random(), [di, dj]))
        if not options:
            return {"type": "shoot", "direction": random.choice(DIRECTIONS)}
        return {"type": "walk", "direction": max(options)[2]}


if __name__ == "__main__":
    run(Walker)
