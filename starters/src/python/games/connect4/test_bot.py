#!/usr/bin/env python3
"""A tiny test of the bot's move logic (no arena, no network): python3 test_bot.py"""
import json
import os
import sys
import unittest

sys.dont_write_bytecode = True  # keep the folder clean: no __pycache__ next to the bot
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bot  # noqa: E402  (the bot's loop only runs when bot.py is the main program)

# Real messages, from docs/games/connect4.md.
INIT = '{"game-id":"example","action":"init","game":"connectfour","players":2,"board":"","player-index":0}'
TURN_1 = '{"game-id":"example","action":"play-turn","game":"connectfour","players":2,"opponent":"random","you":"X","board":[["","","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""]],"player-index":0}'
TURN_4 = '{"game-id":"example","action":"play-turn","game":"connectfour","players":2,"opponent":"random","you":"O","board":[["","X","","","","","O"],["","X","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""],["","","","","","",""]],"player-index":1}'


class TestBot(unittest.TestCase):
    def test_init_answers_a_name(self):
        self.assertIsInstance(bot.handle(json.loads(INIT))["name"], str)

    def test_plays_a_column_that_is_not_full(self):
        for text in (TURN_1, TURN_4):
            message = json.loads(text)
            play = bot.handle(message)["play"]
            self.assertIsInstance(play, int)
            self.assertIn(play, range(7))
            self.assertEqual(message["board"][5][play], "", f"column {play} is full")

    def test_never_a_full_column(self):
        message = json.loads(TURN_1)
        for row in message["board"]:  # fill every column but 6
            row[:6] = ["X", "O", "X", "O", "X", "O"]
        self.assertEqual(bot.handle(message)["play"], 6)


if __name__ == "__main__":
    unittest.main()
