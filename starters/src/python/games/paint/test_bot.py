#!/usr/bin/env python3
"""A tiny test of the bot's move logic (no arena, no network): python3 test_bot.py"""
import json
import os
import sys
import unittest

sys.dont_write_bytecode = True  # keep the folder clean: no __pycache__ next to the bot
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bot  # noqa: E402  (the bot's loop only runs when bot.py is the main program)

# Real messages, from docs/games/paint.md.
HELLO = '{"player_id":"alice"}'
TURN_1 = '{"width":10,"height":10,"player_positions":{"alice":[3,7],"bob":[6,2]},"colors":[[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,"alice",null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,"bob",null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null]],"previous_actions":[],"turns_left":100}'
TURN_3 = '{"width":10,"height":10,"player_positions":{"alice":[2,8],"bob":[7,3]},"colors":[[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,"alice","alice",null],[null,null,null,null,null,null,null,"alice",null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null],[null,null,"bob",null,null,null,null,null,null,null],[null,null,null,"bob",null,null,null,null,null,null],[null,null,null,null,"bob",null,null,null,null,null],[null,null,null,null,null,null,null,null,null,null]],"previous_actions":[{"alice":{"type":"walk","direction":[-1,1]},"bob":{"type":"walk","direction":[1,1]}},{"alice":{"type":"shoot","direction":[0,-1]},"bob":{"type":"shoot","direction":[1,1]}}],"turns_left":98}'
DIRECTIONS = [[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]]


class TestBot(unittest.TestCase):
    def setUp(self):
        self.bot = bot.Bot()
        self.assertEqual(self.bot.handle(json.loads(HELLO)), {"ready": True})

    def test_answers_copy_turns_left_and_are_valid(self):
        for text in (TURN_1, TURN_3):
            state = json.loads(text)
            answer = self.bot.handle(state)
            self.assertEqual(answer["turns_left"], state["turns_left"])
            self.assertIn(answer["type"], ("walk", "shoot"))
            self.assertIn(answer["direction"], DIRECTIONS)
            if answer["type"] == "walk":
                i, j = state["player_positions"]["alice"]
                ti, tj = i + answer["direction"][0], j + answer["direction"][1]
                self.assertTrue(0 <= ti < state["height"] and 0 <= tj < state["width"], "walks onto the board")
                self.assertNotEqual(state["colors"][ti][tj], "alice", "walks onto a square not ours yet")


if __name__ == "__main__":
    unittest.main()
