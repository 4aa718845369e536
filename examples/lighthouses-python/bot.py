#!/usr/bin/env python3
"""A lighthouses bot in plain Python 3 (no packages), speaking the contest's JSON lines on stdin/stdout.

It walks to the nearest lighthouse it does not own, captures it with most of its energy, and on its own
lighthouses connects to any other it owns whose key it holds, when the connection would cross no other. Everything it prints to stderr (prefixed
with its name, as the contest asked) goes into the bot's log in Botarena.
"""
import json
import sys

NAME = "python-example"


def log(text):
    print(f"[{NAME}] {text}", file=sys.stderr, flush=True)


def send(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    if not line:  # stdin closed: the match is over
        sys.exit(0)
    return json.loads(line)


def orient(a, b, c):
    return (b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])


def can_connect(a, b, lighthouses):
    """Whether a connection a-b is legal: it may not pass over another lighthouse or cross a connection."""
    for l in lighthouses:
        p = l["position"]
        if p not in (a, b) and orient(a, b, p) == 0 and min(a[0], b[0]) <= p[0] <= max(a[0], b[0]) and min(a[1], b[1]) <= p[1] <= max(a[1], b[1]):
            return False
    for l in lighthouses:
        for c in l["connections"]:
            d = l["position"]
            if orient(a, b, c) * orient(a, b, d) < 0 and orient(c, d, a) * orient(c, d, b) < 0:
                return False
    return True


def main():
    init = read()
    me, island = init["player_num"], init["map"]
    log(f"player {me} of {init['player_count']}, starting at {init['position']}")
    send({"name": NAME})
    while True:
        state = read()
        x, y = state["position"]
        here = next((l for l in state["lighthouses"] if l["position"] == [x, y]), None)
        command = None
        if here and here["owner"] != me and state["energy"] > max(here["energy"], 0) * (here["owner"] not in (-1, None)):
            command = {"command": "attack", "energy": state["energy"] * 2 // 3}
        elif here and here["owner"] == me:
            for other in state["lighthouses"]:
                if (other is not here and other["owner"] == me and other["have_key"] and [x, y] not in other["connections"]
                        and can_connect([x, y], other["position"], state["lighthouses"])):
                    command = {"command": "connect", "destination": other["position"]}
                    break
        if command is None:
            targets = [l["position"] for l in state["lighthouses"] if l["owner"] != me and l["position"] != [x, y]]
            tx, ty = min(targets, key=lambda p: max(abs(p[0] - x), abs(p[1] - y))) if targets else (x, y)
            dx, dy = (tx > x) - (tx < x), (ty > y) - (ty < y)
            if not island[y + dy][x + dx]:  # blocked by water: any step onto the island
                dx, dy = next(((a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a or b) and island[y + b][x + a]), (0, 0))
            command = {"command": "move", "x": dx, "y": dy}
        send(command)
        result = read()
        if not result["success"]:
            log(f"{command['command']} failed: {result['message']}")


if __name__ == "__main__":
    main()
