#!/usr/bin/env python3
"""A plain breadth-first Rush Hour solver in Python: an example of an outside solver for
Gridlock (`gridlock check`, and the coming `--external`).

The contract: one puzzle on standard input in Fogleman's line format, a 6x6 board of 36
characters ("o" or "." empty, "x" a wall, "A" the prisoner on row 2, "B".."Z" the other blocks;
the chute at the right end of row 2). One JSON object on standard output:
{"status":"solved","moves":["B down 2", ...]} with the fewest moves (a slide of any length is
one move), or {"status":"unsolvable"}. Extra words on the line (a move count before the board,
a cluster size after it) are ignored, so a database line works too.

    echo 'ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo' | python3 examples/external/rushhour_bfs.py
"""

import json
import sys
from collections import deque

SIZE = 6
EXIT_ROW = 2


def read_board(line):
    boards = [word for word in line.split() if len(word) == SIZE * SIZE]
    if len(boards) != 1:
        raise SystemExit(f"rushhour_bfs: expected one board of {SIZE * SIZE} characters, got {line.strip()[:80]!r}")
    board = boards[0]
    cells = {}
    walls = set()
    for index, character in enumerate(board):
        row, column = divmod(index, SIZE)
        if character in "o.":
            continue
        if character == "x":
            walls.add((row, column))
            continue
        cells.setdefault(character, []).append((row, column))
    # Each block: (name, horizontal, length, fixed row or column); its position is the other coordinate.
    blocks = []
    start = []
    for name in sorted(cells):
        spots = sorted(cells[name])
        horizontal = len({row for row, _ in spots}) == 1
        if horizontal:
            blocks.append((name, True, len(spots), spots[0][0]))
            start.append(spots[0][1])
        else:
            blocks.append((name, False, len(spots), spots[0][1]))
            start.append(spots[0][0])
    return blocks, walls, tuple(start)


def occupied(blocks, walls, state):
    taken = set(walls)
    for (name, horizontal, length, line), position in zip(blocks, state):
        for offset in range(length):
            taken.add((line, position + offset) if horizontal else (position + offset, line))
    return taken


def solve(blocks, walls, start):
    prisoner = next(index for index, block in enumerate(blocks) if block[0] == "A")
    goal = SIZE - blocks[prisoner][2]
    parents = {start: None}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state[prisoner] == goal:
            moves = []
            while parents[state] is not None:
                state, move = parents[state]
                moves.append(move)
            return moves[::-1]
        taken = occupied(blocks, walls, state)
        for index, (name, horizontal, length, line) in enumerate(blocks):
            position = state[index]
            for step, words in ((-1, ("left", "up")), (1, ("right", "down"))):
                distance = 0
                while True:
                    distance += 1
                    edge = position - distance if step < 0 else position + length - 1 + distance
                    if edge < 0 or edge >= SIZE:
                        break
                    cell = (line, edge) if horizontal else (edge, line)
                    if cell in taken:
                        break
                    next_state = state[:index] + (position + step * distance,) + state[index + 1:]
                    if next_state not in parents:
                        parents[next_state] = (state, f"{name} {words[0] if horizontal else words[1]} {distance}")
                        queue.append(next_state)
    return None


def main():
    blocks, walls, start = read_board(sys.stdin.readline())
    moves = solve(blocks, walls, start)
    print(json.dumps({"status": "unsolvable"} if moves is None else {"status": "solved", "moves": moves}))


main()
