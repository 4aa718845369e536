#!/usr/bin/env python3
# Generated from starters/src/python/games/tron/test_bot.py by npm run generate:starters: edit those, not this file.
"""A tiny test of the bot's move logic (no arena, no network): python3 test_bot.py"""
import json
import os
import sys
import unittest

sys.dont_write_bytecode = True  # keep the folder clean: no __pycache__ next to the bot
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bot  # noqa: E402  (the bot's loop only runs when bot.py is the main program)

# Real messages, from docs/games/tron.md.
INIT = '{"game-id":"example","action":"init","game":"tron","board":"","players":2,"player-index":0}'
TURN_1 = '{"game-id":"example","action":"play-turn","game":"tron","board":[[[1,91]],[[49,34]]],"player-index":0,"players":2}'
TURN_5 = '{"game-id":"example","action":"play-turn","game":"tron","board":[[[5,91],[4,91],[3,91],[2,91],[1,91]],[[49,38],[49,37],[49,36],[49,35],[49,34]]],"player-index":0,"players":2}'
STEPS = {"x+": (1, 0), "x-": (-1, 0), "y+": (0, 1), "y-": (0, -1)}


def is_legal(message, play):
    width, height = message.get("width", 100), message.get("height", 100)
    x, y = message["board"][message["player-index"]][0]
    dx, dy = STEPS[play]
    taken = {tuple(c) for trail in message["board"] for c in trail}
    return 0 <= x + dx < width and 0 <= y + dy < height and (x + dx, y + dy) not in taken


class TestBot(unittest.TestCase):
    def test_init_answers_a_name(self):
        self.assertIsInstance(bot.handle(json.loads(INIT))["name"], str)

    def test_moves_onto_a_free_cell_of_the_grid(self):
        for text in (TURN_1, TURN_5):
            message = json.loads(text)
            play = bot.handle(message)["play"]
            self.assertIn(play, STEPS)
            self.assertTrue(is_legal(message, play), f"{play} leaves the grid or hits a trail")

    def test_reads_width_and_height(self):
        # On a 3 x 2 grid, from the corner (2, 1) with (1, 1) taken, only y- stays on the grid and off trails.
        message = {"game-id": "t", "action": "play-turn", "game": "tron", "board": [[[2, 1], [1, 1]], [[0, 0]]],
                   "width": 3, "height": 2, "player-index": 0, "players": 2}
        self.assertEqual(bot.handle(message)["play"], "y-")


if __name__ == "__main__":
    unittest.main()
