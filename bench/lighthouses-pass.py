#!/usr/bin/env python3
"""A lighthouses bot that always passes, reading every message as JSON: the bench's Python bot, so a match
times the arena and the pipes, not a bot's thinking."""
import json
import sys


def read():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


read()
sys.stdout.write('{"name": "pass"}\n')
sys.stdout.flush()
while True:
    read()
    sys.stdout.write('{"command": "pass"}\n')
    sys.stdout.flush()
    read()
