#!/usr/bin/env python3
"""A tiny test of the bot's move logic (no arena, no network): python3 test_bot.py"""
import json
import os
import sys
import unittest

sys.dont_write_bytecode = True  # keep the folder clean: no __pycache__ next to the bot
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bot  # noqa: E402  (the bot's loop only runs when bot.py is the main program)

# Real messages, from docs/games/tictactoe.md.
INIT = '{"game-id":"example","action":"init","game":"tictactoe","players":2,"board":"","player-index":0}'
TURN_1 = '{"game-id":"example","action":"play-turn","game":"tictactoe","players":2,"board":{"0-0":"","0-1":"","0-2":"","1-0":"","1-1":"","1-2":"","2-0":"","2-1":"","2-2":""},"you":"X","player-index":0}'
TURN_4 = '{"game-id":"example","action":"play-turn","game":"tictactoe","players":2,"board":{"0-0":"","0-1":"X","0-2":"","1-0":"","1-1":"X","1-2":"","2-0":"","2-1":"","2-2":"O"},"you":"O","player-index":1}'


class TestBot(unittest.TestCase):
    def test_init_answers_a_name(self):
        self.assertIsInstance(bot.handle(json.loads(INIT))["name"], str)

    def test_plays_an_empty_cell(self):
        for text in (TURN_1, TURN_4):
            message = json.loads(text)
            play = bot.handle(message)["play"]
            self.assertIn(play, message["board"])
            self.assertEqual(message["board"][play], "", f"{play} is taken")

    def test_blocks_a_line(self):
        # X has 0-1 and 1-1: O must take 2-1.
        self.assertEqual(bot.handle(json.loads(TURN_4))["play"], "2-1")


if __name__ == "__main__":
    unittest.main()
