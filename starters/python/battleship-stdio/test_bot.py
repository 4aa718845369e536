#!/usr/bin/env python3
# Generated from starters/src/python/games/battleship/test_bot.py by npm run generate:starters: edit those, not this file.
"""A tiny test of the bot's fleet and shot logic (no arena, no network): python3 test_bot.py"""
import json
import os
import re
import sys
import unittest

sys.dont_write_bytecode = True  # keep the folder clean: no __pycache__ next to the bot
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bot  # noqa: E402  (the bot's loop only runs when bot.py is the main program)

# Real messages, from docs/games/battleship.md.
INIT = '{"game-id":2971996522,"game":"battleship","action":"init","players":2,"player-index":0,"board":{"opponent":"random","width":"10","height":"10","ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0"}}'
TURN_7 = '{"game":"Battleship","game-id":2971996522,"action":"play-turn","player-index":0,"board":{"opponent":"random","width":"10","height":"10","ship1":"0","ship2":"1","ship3":"2","ship4":"1","ship5":"1","ship6":"0","your_strikes":[{"target":"0,4","result":"hit"},{"target":"6,9","result":""},{"target":"4,9","result":""}],"his_strikes":[{"target":"9,3","result":""},{"target":"7,2","result":""},{"target":"3,9","result":""}]}}'


def check_fleet(testcase, board, boats):
    """The arena's rules: each ship "x1,y1-x2,y2" on one row or column, on the grid, no overlap, exact counts."""
    width, height = int(board["width"]), int(board["height"])
    used, counts = set(), {}
    for ship in boats:
        m = re.fullmatch(r"(0|[1-9]\d*),(0|[1-9]\d*)-(0|[1-9]\d*),(0|[1-9]\d*)", ship)
        testcase.assertIsNotNone(m, ship)
        x1, y1, x2, y2 = map(int, m.groups())
        testcase.assertTrue(x1 == x2 or y1 == y2, f"{ship} is diagonal")
        cells = {(x, y) for x in range(min(x1, x2), max(x1, x2) + 1) for y in range(min(y1, y2), max(y1, y2) + 1)}
        testcase.assertTrue(all(0 <= x < width and 0 <= y < height for x, y in cells), f"{ship} is off the grid")
        testcase.assertFalse(used & cells, f"{ship} overlaps another ship")
        used |= cells
        counts[len(cells)] = counts.get(len(cells), 0) + 1
    for n in range(1, 7):
        testcase.assertEqual(counts.get(n, 0), int(board[f"ship{n}"]), f"ships of length {n}")


class TestBot(unittest.TestCase):
    def test_fleet_is_valid(self):
        message = json.loads(INIT)
        for _ in range(20):
            check_fleet(self, message["board"], bot.handle(message)["boats"])

    def test_fleet_for_other_counts(self):
        message = json.loads(INIT)
        message["board"].update({"width": "8", "height": "8", "ship5": "0", "ship1": "2", "ship6": "1"})
        check_fleet(self, message["board"], bot.handle(message)["boats"])

    def test_shot_is_new_and_on_the_grid(self):
        message = json.loads(TURN_7)
        play = bot.handle(message)["play"]
        self.assertRegex(play, r"^(0|[1-9]\d*),(0|[1-9]\d*)$")
        x, y = map(int, play.split(","))
        self.assertTrue(0 <= x < 10 and 0 <= y < 10)
        self.assertNotIn(play, [s["target"] for s in message["board"]["your_strikes"]])
        # 0,4 was a hit: the next shot is one of its neighbours.
        self.assertIn(play, ["1,4", "0,5", "0,3"])


if __name__ == "__main__":
    unittest.main()
