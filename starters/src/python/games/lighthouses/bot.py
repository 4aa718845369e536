#!/usr/bin/env python3
"""A Lighthouses starter bot for Botarena, <%over%>, in plain Python 3 (standard library only).

The arena starts this program once per match. Each message is one line of JSON on stdin. The bot
answers `init` and each turn state with one line of JSON on stdout (flushed at once), and does NOT
answer the `{"success": ...}` result that follows each command. Stdout is the wire: print nothing else
there. Debug output goes to stderr, which the arena keeps in the bot's log (`botarena play ... --log`).

The messages (see docs/games/lighthouses.md in the botarena package). y grows UPWARDS; map[y][x]:
  {"player_num":0,"player_count":2,"position":[5,10],"map":[[0,0,...],...],"lighthouses":[[11,2],[7,3],...]}
  {"position":[5,10],"score":0,"energy":5,"view":[[...7 x 7...]],"lighthouses":[{"position":[11,2],
   "owner":-1,"energy":0,"connections":[],"have_key":false},...]}
  {"success":true}   or   {"success":false,"message":"Delta must be 1 cell away"}
"""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

NAME = "python-starter"
Point = Tuple[int, int]
"""A cell (x, y); on the wire an array [x, y]."""


@dataclass
class Init:
    """The `init` message, sent once before round 1. Answer {"name": ...} within 2 s."""

    player_num: int
    """<%doc:init.player_num%>"""
    player_count: int
    """<%doc:init.player_count%>"""
    position: Point
    """<%doc:init.position%>"""
    island: List[List[int]]
    """The `map` field. <%doc:init.map%>"""
    lighthouses: List[Point]
    """<%doc:init.lighthouses%>"""

    @staticmethod
    def parse(message: dict) -> "Init":
        return Init(
            player_num=int(message["player_num"]),
            player_count=int(message["player_count"]),
            position=tuple(message["position"]),
            island=message["map"],
            lighthouses=[tuple(p) for p in message["lighthouses"]],
        )


@dataclass
class Lighthouse:
    """One lighthouse, as a turn state shows it."""

    position: Point
    owner: Optional[int]
    """The owner's player number; -1 (or None with --set neutral=null) when neutral."""
    energy: int
    connections: List[Point] = field(default_factory=list)
    """The lighthouses it is linked to."""
    have_key: bool = False
    """Whether you hold its key (needed to connect TO it)."""

    @staticmethod
    def parse(item: dict) -> "Lighthouse":
        return Lighthouse(
            position=tuple(item["position"]),
            owner=item["owner"],
            energy=int(item["energy"]),
            connections=[tuple(p) for p in item["connections"]],
            have_key=bool(item["have_key"]),
        )


@dataclass
class State:
    """The turn state, once a round when it is your turn. Answer one command within 500 ms."""

    position: Point
    """<%doc:turn.position%>"""
    score: int
    """<%doc:turn.score%>"""
    energy: int
    """<%doc:turn.energy%> Spend it on attacks."""
    view: List[List[int]]
    """<%doc:turn.view%> Row 0 is 3 cells BELOW you."""
    lighthouses: List[Lighthouse]
    """<%doc:turn.lighthouses%>"""

    @staticmethod
    def parse(message: dict) -> "State":
        return State(
            position=tuple(message["position"]),
            score=int(message["score"]),
            energy=int(message["energy"]),
            view=message["view"],
            lighthouses=[Lighthouse.parse(item) for item in message["lighthouses"]],
        )


@dataclass
class Result:
    """The line after each command. Not answered."""

    success: bool
    message: str = ""
    """Only when success is false: why."""


def log(text: str) -> None:
    """<%log-doc%>"""
    print(f"[{NAME}] {text}", file=sys.stderr, flush=True)


# ---- geometry, as the rules check a connection ------------------------------------------------
def orient(a: Point, b: Point, c: Point) -> int:
    return (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])


def crosses(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Whether segments a-b and c-d cross properly (sharing an end or lying on one line does not count)."""
    return orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0


def on_segment(a: Point, b: Point, p: Point) -> bool:
    """Whether p lies exactly on the closed segment a-b."""
    return (orient(a, b, p) == 0 and min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
            and min(a[1], b[1]) <= p[1] <= max(a[1], b[1]))


class Bot:
    """Keeps what `init` said (the island, who we are) for the turns."""

    def __init__(self, init: Init) -> None:
        self.me = init.player_num
        self.island = init.island

    def is_island(self, x: int, y: int) -> bool:
        return 0 <= y < len(self.island) and 0 <= x < len(self.island[y]) and self.island[y][x] == 1

    def can_connect(self, state: State, origin: Lighthouse, dest: Lighthouse) -> bool:
        """Every condition the rules check for `connect`, so the bot never sends one that fails."""
        if dest is origin or origin.owner != self.me or dest.owner != self.me or not dest.have_key:
            return False
        if dest.position in origin.connections:
            return False
        a, b = origin.position, dest.position
        if any(on_segment(a, b, l.position) for l in state.lighthouses if l is not origin and l is not dest):
            return False
        links = {tuple(sorted((l.position, p))) for l in state.lighthouses for p in l.connections}
        return not any(crosses(a, b, c, d) for c, d in links)

    def step_towards(self, state: State, target: Point) -> Tuple[int, int]:
        """A step (dx, dy) onto an island cell, as close to `target` as possible."""
        x, y = state.position
        options = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                   if (dx or dy) and self.is_island(x + dx, y + dy)]
        if not options:
            return (0, 0)  # staying put is a move onto our own (island) cell
        return min(options, key=lambda d: (max(abs(target[0] - x - d[0]), abs(target[1] - y - d[1])),
                                           abs(target[0] - x - d[0]) + abs(target[1] - y - d[1])))

    def command(self, state: State) -> dict:
        """The command for this turn: always one the rules accept."""
        # ---- your strategy goes here ---------------------------------------------------------
        # On a lighthouse: capture it when we can (more energy than it holds if it is someone else's),
        # else link it to one of our lighthouses when the rules allow. Otherwise walk to the nearest
        # lighthouse we do not own. Moves only go onto island cells.
        here = next((l for l in state.lighthouses if l.position == state.position), None)
        if here is not None:
            enemy = here.owner not in (-1, None, self.me)
            if here.owner != self.me and state.energy > (here.energy if enemy else 0):
                return {"command": "attack", "energy": state.energy}
            if here.owner == self.me:
                for other in state.lighthouses:
                    if self.can_connect(state, here, other):
                        return {"command": "connect", "destination": list(other.position)}
        x, y = state.position
        targets = [l.position for l in state.lighthouses if l.owner != self.me and l.position != state.position]
        if not targets:
            targets = [l.position for l in state.lighthouses if l.position != state.position]
        if not targets:
            return {"command": "pass"}
        target = min(targets, key=lambda p: max(abs(p[0] - x), abs(p[1] - y)))
        dx, dy = self.step_towards(state, target)
        return {"command": "move", "x": dx, "y": dy}
        # -----------------------------------------------------------------------------------------


def handle(bot: Optional[Bot], message: dict) -> Tuple[Optional[Bot], Optional[dict]]:
    """One message in: the bot (created by `init`) and the answer, None for a result line (no answer)."""
    if "player_num" in message:
        init = Init.parse(message)
        log(f"player {init.player_num} of {init.player_count}, starting at {init.position}")
        return Bot(init), {"name": NAME}
    if "success" in message:
        result = Result(success=bool(message["success"]), message=str(message.get("message", "")))
        if not result.success:
            log(f"command failed: {result.message}")
        return bot, None
    state = State.parse(message)
    if bot is None:  # no init seen (should not happen): play with what we know
        bot = Bot(Init(0, 2, state.position, [], []))
    return bot, bot.command(state)


def main() -> None:
    bot: Optional[Bot] = None
    for line in sys.stdin:  # ends when the arena closes stdin after the last round
        if not line.strip():
            continue
        try:
            bot, answer = handle(bot, json.loads(line))
        except Exception as err:  # a bug should show in the log, not cost the turn's deadline
            log(f"error: {err!r}")
            answer = None if '"success"' in line else {"command": "pass"}  # never answer a result line
        if answer is not None:
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
