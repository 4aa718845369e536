#!/usr/bin/env python3
"""Times the original lighthouses engine (marcan/lighthouses_aicontest: its engine/engine.py, botplayer.py
and geom.py, in the folder given first) over a whole match with the given bot command lines: the loop of its
game.py (every bot's hello, then each round pre_round, every bot's turn, post_round and the score line),
without its pygame view, then every bot closed as botplayer does. Prints the seconds and the scores as one
JSON line last.

    python3 bench/lighthouses-original.py ORIGINAL_DIR MAP_FILE ROUNDS "bot command" ...
"""
import json
import os
import sys
import time

original, map_file, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
commands = sys.argv[4:]
sys.path.insert(0, os.path.join(original, "engine"))
import botplayer  # noqa: E402 (the original's modules, from its folder)
import engine  # noqa: E402

start = time.perf_counter()
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
