#!/usr/bin/env python3
"""A tiny test of the bot's command logic (no arena, no network): python3 test_bot.py"""
import json
import os
import sys
import unittest

sys.dont_write_bytecode = True  # keep the folder clean: no __pycache__ next to the bot
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bot  # noqa: E402  (the bot's loop only runs when bot.py is the main program)

# Real messages, from docs/games/lighthouses.md.
INIT = '{"player_num":0,"player_count":2,"position":[5,10],"map":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],[0,0,0,0,0,1,1,1,0,0,0,0,1,1,1,0,0,0,0,0,0],[0,0,0,1,1,1,0,0,1,1,1,1,1,1,1,1,1,0,0,0,0],[0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0],[0,1,1,1,1,1,1,1,1,1,0,0,1,1,1,1,1,1,1,0,0],[0,0,1,1,1,1,1,1,0,0,0,0,1,1,1,1,1,1,1,0,0],[0,0,1,1,1,1,1,1,1,1,0,1,1,1,1,1,1,1,1,1,0],[0,1,1,1,1,1,1,1,1,1,0,0,1,1,1,1,1,1,1,1,0],[0,1,1,1,1,1,1,1,1,1,1,0,0,0,1,1,1,1,1,0,0],[0,0,1,1,1,1,1,1,1,1,1,0,0,0,0,1,1,1,1,0,0],[0,0,0,1,1,1,1,1,1,1,1,1,0,0,1,1,1,0,0,0,0],[0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]],"lighthouses":[[11,2],[7,3],[15,4],[4,6],[15,6],[4,8],[7,9],[18,9],[8,11]]}'
TURN_1 = '{"position":[5,10],"score":0,"energy":5,"view":[[-1,-1,-1,8,-1,-1,-1],[-1,6,9,8,9,8,-1],[-1,5,8,8,9,8,-1],[0,2,5,0,7,8,7],[-1,0,0,5,6,7,-1],[-1,0,0,0,0,0,-1],[-1,-1,-1,0,-1,-1,-1]],"lighthouses":[{"position":[11,2],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[7,3],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[15,4],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[4,6],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[15,6],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[4,8],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[7,9],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[18,9],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[8,11],"owner":-1,"energy":0,"connections":[],"have_key":false}]}'
TURN_157 = '{"position":[11,2],"score":92,"energy":2507,"view":[[-1,-1,-1,0,-1,-1,-1],[-1,0,0,0,0,0,-1],[-1,0,0,0,6,15,-1],[100,100,100,0,100,45,24],[-1,100,100,100,100,35,-1],[-1,100,0,0,100,100,-1],[-1,-1,-1,0,-1,-1,-1]],"lighthouses":[{"position":[11,2],"owner":0,"energy":2414,"connections":[],"have_key":true},{"position":[7,3],"owner":1,"energy":2545,"connections":[[4,8]],"have_key":false},{"position":[15,4],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[4,6],"owner":-1,"energy":0,"connections":[],"have_key":true},{"position":[15,6],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[4,8],"owner":1,"energy":1001,"connections":[[7,3]],"have_key":true},{"position":[7,9],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[18,9],"owner":-1,"energy":0,"connections":[],"have_key":false},{"position":[8,11],"owner":-1,"energy":0,"connections":[],"have_key":false}]}'


class TestBot(unittest.TestCase):
    def setUp(self):
        self.init = json.loads(INIT)
        self.player, answer = bot.handle(None, self.init)
        self.assertIsInstance(answer["name"], str)

    def assert_legal(self, state, command):
        x, y = state["position"]
        if command["command"] == "move":
            self.assertIn(command["x"], (-1, 0, 1))
            self.assertIn(command["y"], (-1, 0, 1))
            self.assertEqual(self.init["map"][y + command["y"]][x + command["x"]], 1, "the step must land on the island")
        elif command["command"] == "attack":
            self.assertIn([x, y], [l["position"] for l in state["lighthouses"]], "attack only on a lighthouse")
            self.assertTrue(0 <= command["energy"] <= state["energy"])
        else:
            self.assertIn(command["command"], ("pass", "connect"))

    def test_first_turn_moves_onto_the_island(self):
        state = json.loads(TURN_1)
        _, command = bot.handle(self.player, state)
        self.assertEqual(command["command"], "move")
        self.assert_legal(state, command)

    def test_later_turn_is_legal(self):
        state = json.loads(TURN_157)
        _, command = bot.handle(self.player, state)
        self.assert_legal(state, command)

    def test_result_lines_get_no_answer(self):
        self.assertIsNone(bot.handle(self.player, {"success": True})[1])
        self.assertIsNone(bot.handle(self.player, {"success": False, "message": "Delta must be 1 cell away"})[1])

    def test_no_connect_across_a_link(self):
        # We own (4,6) and (15,6) and hold both keys, but the other player's link (7,3)-(7,9) is in the way.
        state = json.loads(TURN_1)
        state["position"] = [4, 6]
        for l in state["lighthouses"]:
            if l["position"] in ([4, 6], [15, 6]):
                l.update(owner=0, energy=50, have_key=True)
            if l["position"] in ([7, 3], [7, 9]):
                l.update(owner=1, energy=50, connections=[[7, 9] if l["position"] == [7, 3] else [7, 3]])
        _, command = bot.handle(self.player, state)
        self.assertNotEqual(command["command"], "connect")
        self.assert_legal(state, command)


if __name__ == "__main__":
    unittest.main()
