#!/usr/bin/env python3
# Generated from starters/src/python/games/smartdog/test_bot.py by npm run generate:starters: edit those, not this file.
"""A tiny test of the bot's turn logic (no arena, no network): python3 test_bot.py"""
import os
import re
import sys
import unittest

sys.dont_write_bytecode = True  # keep the folder clean: no __pycache__ next to the bot
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bot  # noqa: E402  (the bot's loop only runs when bot.py is the main program)

# Real lines, from docs/games/smartdog.md (turn 1 of `random` bots, seed 1).
TURN_1 = '''start "you":1,"rows":12,"cols":32,"players":2,"x1":0,"x2":15,"y1":0,"y2":11,"waitForTurn":300000,"dogVisibilityR":4,"dogBarkingR":4,"sheepStandBy":4,"sheepScaryTurns":1,"turnsLimit":100,"dogScaryTurns":4,"maxSheepsCount":7,"iniSheepsCount":0
landscape "................................","..#######.........#######.......","..#11111#.........#22222#.......","..#11111..........#22222........","..#11111#.........#22222#.......","..#######.........#######.......","................................","................................","................................","................................","..^^.......^......^^.......^....","................................"
state  "turn":1
obj  "id":1,"type":"Dog","x":7,"y":6,"owner":1,"action":"move"
obj  "type":"Sheep","x":8,"y":8,"action":"standBy","direction":"down"
obj  "type":"Sheep","x":12,"y":6,"action":"standBy","direction":"down"
obj  "id":2,"type":"Dog","x":12,"y":8,"owner":1,"action":"move"
obj  "type":"Sheep","x":12,"y":9,"action":"standBy","direction":"down"
turn'''
STEPS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


class TestBot(unittest.TestCase):
    def test_first_turn(self):
        b = bot.Bot()
        out = []
        for line in TURN_1.split("\n"):
            out += b.on_line(line + "\n")
        self.assertEqual(b.start.you, 1)
        self.assertEqual(len(b.land), 12)
        self.assertEqual(len(b.objs), 5)
        self.assertEqual(out[-1], "end", "the turn ends with `end`")
        land = b.land
        occupied = {(o.x, o.y) for o in b.objs}
        dogs = {o.id: o for o in b.objs if o.type == "Dog" and o.owner == 1}
        moved = set()
        for command in out[:-1]:
            m = re.fullmatch(r"do (\d+) (move (up|down|left|right)|bark)", command)
            self.assertIsNotNone(m, command)
            dog = dogs[int(m.group(1))]  # only our own dogs
            if m.group(3):
                self.assertNotIn(dog.id, moved, "one move per dog")
                moved.add(dog.id)
                dx, dy = STEPS[m.group(3)]
                x, y = (dog.x + dx) % 32, (dog.y + dy) % 12
                self.assertNotIn(land[y][x], "#^", f"{command} walks into a fence or tree")
                self.assertNotIn((x, y), occupied, f"{command} walks into a dog or sheep")
        self.assertTrue(any(c.endswith(("up", "down", "left", "right")) for c in out), "the dogs go after the sheep")

    def test_finished(self):
        b = bot.Bot()
        self.assertEqual(b.on_line('finished "youWin":true,"winner":1\n'), [])
        self.assertEqual(b.finished, {"youWin": True, "winner": 1})


if __name__ == "__main__":
    unittest.main()
