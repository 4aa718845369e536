#!/usr/bin/env python3
"""Times the original lighthouses engine (marcan/lighthouses_aicontest: its engine/engine.py, botplayer.py
and geom.py, in the folder given first) over a whole match: the loop of its game.py (every bot's hello, then
each round pre_round, every bot's turn, post_round and the score line), without its pygame view, then every
bot closed as botplayer does. Prints the seconds and the scores as one JSON line last.

    python3 bench/lighthouses-original.py ORIGINAL_DIR MAP_FILE ROUNDS "bot command" ...
    python3 bench/lighthouses-original.py ORIGINAL_DIR MAP_FILE ROUNDS --random PLAYERS [SEED]

With --random, the engine alone: each player is the original's BotPlayer with its bot in this process, a
player that plays like the original's example RandBot (on its own lighthouse it may connect, on any it may
attack, else a random step), fed the state dicts BotPlayer builds and answering command dicts. No process, no
pipe, no JSON: what Botarena's engine does with its built-in `random` bots.
"""
import json
import os
import random
import sys
import time

original, map_file, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, os.path.join(original, "engine"))
import botplayer  # noqa: E402 (the original's modules, from its folder)
import engine  # noqa: E402

STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


class InProcessRandom(botplayer.BotPlayer):
    """The original's BotPlayer (its turn(): the state it sends, the command it applies, the result) with a
    random player in place of the bot's process."""

    def __init__(self, game, playernum, rng):  # no process: BotPlayer's own __init__ would start one
        self.alive = True
        self.game = game
        self.player = game.players[playernum]
        self.debug = False
        self.rng = rng
        self.reply = None

    def _send(self, data):
        if "map" in data:  # the hello
            self.me = data["player_num"]
            self.map = data["map"]
            self.homes = [tuple(p) for p in data["lighthouses"]]
            self.reply = {"name": "random"}
        elif "view" in data:  # a turn (a result, {"success": ...}, needs nothing)
            self.reply = self.play(data)

    def _recv(self, soft_timeout, hard_timeout):
        return self.reply

    def close(self):
        self.alive = False

    def play(self, state):
        rng = self.rng
        cx, cy = state["position"]
        here_pos = (cx, cy)
        by_pos = {tuple(lh["position"]): lh for lh in state["lighthouses"]}
        if here_pos in by_pos:
            if by_pos[here_pos]["owner"] == self.me and rng.randrange(100) < 60:
                options = [d for d in self.homes
                           if d != here_pos and by_pos[d]["have_key"] and by_pos[d]["owner"] == self.me
                           and here_pos not in [tuple(c) for c in by_pos[d]["connections"]]]
                if options:
                    return {"command": "connect", "destination": rng.choice(options)}
            if rng.randrange(100) < 60:
                return {"command": "attack", "energy": rng.randrange(state["energy"] + 1)}
        x, y = rng.choice([(x, y) for x, y in STEPS if self.map[cy + y][cx + x]])
        return {"command": "move", "x": x, "y": y}


start = time.perf_counter()
if sys.argv[4] == "--random":
    players = int(sys.argv[5])
    rng = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 0)
    game = engine.Game(engine.GameConfig(map_file), players)
    actors = [InProcessRandom(game, i, rng) for i in range(players)]
else:
    commands = sys.argv[4:]
    game = engine.Game(engine.GameConfig(map_file), len(commands))
    actors = [botplayer.BotPlayer(game, i, command) for i, command in enumerate(commands)]
for actor in actors:
    actor.initialize()
for n in range(rounds):
    game.pre_round()
    for actor in actors:
        actor.turn()
    game.post_round()
    print("########### ROUND %d SCORE: %s" % (n, " ".join("P%d: %d" % (i, p.score) for i, p in enumerate(game.players))))
for actor in actors:
    actor.close()
print(json.dumps({"seconds": time.perf_counter() - start, "scores": [p.score for p in game.players]}))
