#!/usr/bin/env python3
# Generated from starters/src/python/games/smartdog/bot.py + python/shims/text-stdio.txt by npm run generate:starters: edit those, not this file.
"""A smart-dog starter bot for Botarena, over stdio, in plain Python 3 (standard library only).

The arena starts this program once per match and writes the server's text lines on its stdin; the bot
writes its commands on stdout, one per line, flushed at once (it sends no `join`). Stdout is the wire:
print nothing else there. Debug output goes to stderr, which the arena keeps in the bot's log
(`botarena play ... --log`).

The lines (see docs/games/smartdog.md in the botarena package). Arguments are JSON without their
outer {} or []; after `state` and `obj` come TWO spaces:
  start "you":1,"rows":12,"cols":32,"players":2,"x1":0,"x2":15,"y1":0,"y2":11,...
  landscape "....","..###..",...
  state  "turn":1
  obj  "id":1,"type":"Dog","x":7,"y":6,"owner":1,"action":"move"
  obj  "type":"Sheep","x":8,"y":8,"action":"standBy","direction":"down"
  turn                       -> answer  do 1 move up / do 1 bark ... then  end
  finished "youWin":true,"winner":1
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

NAME = "python-starter"
STEPS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
"""The four moves; y grows DOWNWARDS (up is y - 1). The board wraps around at its edges."""


@dataclass
class Start:
    """The `start` line, at the first turn: who you are, the board, your territory and the options."""

    you: int
    """Your player number (1-4)."""
    rows: int
    cols: int
    players: int
    x1: int
    x2: int
    y1: int
    y2: int
    """Your territory: x1..x2, y1..y2, bounds included."""
    dog_barking_r: int = 4
    """How far a bark reaches (dx^2 + dy^2 <= r^2, the short way round)."""
    turns_limit: int = 100
    options: dict = field(default_factory=dict)
    """Every field of the line, as sent (waitForTurn, sheepStandBy, maxSheepsCount, ...)."""

    @staticmethod
    def parse(arg: dict) -> "Start":
        return Start(you=int(arg["you"]), rows=int(arg["rows"]), cols=int(arg["cols"]), players=int(arg["players"]),
                     x1=int(arg["x1"]), x2=int(arg["x2"]), y1=int(arg["y1"]), y2=int(arg["y2"]),
                     dog_barking_r=int(arg.get("dogBarkingR", 4)), turns_limit=int(arg.get("turnsLimit", 100)), options=arg)


@dataclass
class Obj:
    """One `obj` line: a dog, a sheep, or only the voice of an unseen dog that barked last turn."""

    type: Optional[str]
    """"Dog", "Sheep", or None for a voice only."""
    x: int
    y: int
    id: Optional[int] = None
    """A dog's id (sheep have none)."""
    owner: Optional[int] = None
    """A dog's player number."""
    action: Optional[str] = None
    """A dog: move, panic or indignant. A sheep: panic, move or standBy."""
    direction: Optional[str] = None
    """A sheep's heading (or flight direction)."""
    voice: Optional[str] = None
    """"barking" when it barked last turn."""

    @staticmethod
    def parse(arg: dict) -> "Obj":
        return Obj(type=arg.get("type"), x=int(arg["x"]), y=int(arg["y"]), id=arg.get("id"), owner=arg.get("owner"),
                   action=arg.get("action"), direction=arg.get("direction"), voice=arg.get("voice"))


def parse_line(line: str) -> Tuple[str, Optional[str]]:
    """Splits a server line into its command and its argument text (after one space, or two for state/obj)."""
    line = line.rstrip("\r\n")
    cmd, _, rest = line.partition(" ")
    if cmd in ("state", "obj") and rest.startswith(" "):
        rest = rest[1:]
    return cmd, rest


def arg_object(rest: str) -> dict:
    """The argument is a JSON object without its braces: wrap it back."""
    return json.loads("{" + rest + "}")


def arg_array(rest: str) -> list:
    """The `landscape` argument is a JSON array without its brackets."""
    return json.loads("[" + rest + "]")


def log(text: str) -> None:
    """Debug output goes to stderr: stdout is the wire (over stdio), and the arena shows stderr with --log."""
    print(f"[{NAME}] {text}", file=sys.stderr, flush=True)


class Bot:
    """Reads the server's lines; on `turn`, returns the command lines for the turn (ending with `end`)."""

    def __init__(self) -> None:
        self.start: Optional[Start] = None
        self.land: List[str] = []
        """landscape rows, y = 0 first: . grass, # fence, ^ tree, 1-4 a pen."""
        self.turn = 0
        self.objs: List[Obj] = []
        self.finished: Optional[dict] = None

    def on_line(self, line: str) -> List[str]:
        """One server line in; the lines to send back (only on `turn`)."""
        cmd, rest = parse_line(line)
        if cmd == "start":
            self.start = Start.parse(arg_object(rest))
            log(f"I am player {self.start.you} of {self.start.players}, board {self.start.cols}x{self.start.rows}")
        elif cmd == "landscape":
            self.land = arg_array(rest)
        elif cmd == "state":
            self.turn = int(arg_object(rest).get("turn", 0))
            self.objs = []
        elif cmd == "obj":
            self.objs.append(Obj.parse(arg_object(rest)))
        elif cmd == "turn":
            return self.play() + ["end"]
        elif cmd == "finished":
            self.finished = arg_object(rest) if rest else {}
            log(f"finished: {self.finished}")
        elif cmd in ("warning", "error", "wait"):
            log(line.rstrip())  # a blocked move, a scared dog, the lobby...
        return []

    # ---- helpers on the torus ---------------------------------------------------------------------
    def delta(self, a: int, b: int, n: int) -> int:
        """The shorter signed way from a to b on a ring of n cells."""
        d = (b - a) % n
        return d - n if d > n / 2 else d

    def dist2(self, ax: int, ay: int, bx: int, by: int) -> int:
        return self.delta(ax, bx, self.start.cols) ** 2 + self.delta(ay, by, self.start.rows) ** 2

    def my_pen(self) -> Tuple[int, int]:
        mark = str(self.start.you)
        for y, row in enumerate(self.land):
            x = row.find(mark)
            if x >= 0:
                return x, y
        return self.start.x1, self.start.y1

    def free(self, x: int, y: int) -> bool:
        """Grass or a pen, with no dog or sheep seen on it."""
        return self.land[y][x] not in "#^" and not any(o.type and o.x == x and o.y == y for o in self.objs)

    def step(self, dog: Obj, tx: int, ty: int) -> Optional[str]:
        """The move that brings `dog` closest to (tx, ty) onto a free cell, or None."""
        far = lambda x, y: abs(self.delta(x, tx, self.start.cols)) + abs(self.delta(y, ty, self.start.rows))  # noqa: E731
        best = None
        for way, (sx, sy) in STEPS.items():
            x, y = (dog.x + sx) % self.start.cols, (dog.y + sy) % self.start.rows
            if self.free(x, y) and (best is None or far(x, y) < best[0]):
                best = (far(x, y), way)
        return best[1] if best and best[0] <= far(dog.x, dog.y) else None

    def play(self) -> List[str]:
        """The `do` lines for this turn."""
        if self.start is None or not self.land:
            return []
        # ---- your strategy goes here -------------------------------------------------------------
        # Each dog walks to the cell behind the nearest stray sheep (seen from our pen) and barks there,
        # pushing the sheep toward the pen, unless the bark would scare sheep already in our pen.
        px, py = self.my_pen()
        mine = str(self.start.you)
        dogs = [o for o in self.objs if o.type == "Dog" and o.owner == self.start.you]
        strays = [o for o in self.objs if o.type == "Sheep" and self.land[o.y][o.x] != mine]
        lines = []
        for dog in dogs:
            if dog.action == "panic" or not strays:
                continue
            sheep = min(strays, key=lambda s: self.dist2(dog.x, dog.y, s.x, s.y))
            sign = lambda v: (v > 0) - (v < 0)  # noqa: E731
            bx = (sheep.x - sign(self.delta(sheep.x, px, self.start.cols))) % self.start.cols
            by = (sheep.y - sign(self.delta(sheep.y, py, self.start.rows))) % self.start.rows
            if (dog.x, dog.y) == (bx, by):
                r2 = self.start.dog_barking_r ** 2
                penned = any(o.type == "Sheep" and self.land[o.y][o.x] == mine and self.dist2(dog.x, dog.y, o.x, o.y) <= r2
                             for o in self.objs)
                if not penned and dog.action != "indignant":
                    lines.append(f"do {dog.id} bark")
                continue
            way = self.step(dog, bx, by)
            if way:
                lines.append(f"do {dog.id} move {way}")
        return lines
        # -------------------------------------------------------------------------------------------


def main() -> None:
    bot = Bot()
    for line in sys.stdin:  # ends when the arena closes stdin after `finished`
        if not line.strip():
            continue
        try:
            out = bot.on_line(line)
        except Exception as err:  # a bug should show in the log; still end the turn so the game goes on
            log(f"error: {err!r}")
            out = ["end"] if line.startswith("turn") else []
        for command in out:
            sys.stdout.write(command + "\n")
        sys.stdout.flush()
        if bot.finished is not None:
            break


if __name__ == "__main__":
    main()
