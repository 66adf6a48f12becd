#!/usr/bin/env python3
"""A plain breadth-first Rush Hour solver in Python: an example of an outside solver for
Gridlock (`gridlock check`, `--external` and `--external-serve`).

The contract: one puzzle on standard input in Fogleman's line format, a 6x6 board of 36
characters ("o" or "." empty, "x" a wall, "A" the prisoner on row 2, "B".."Z" the other blocks;
the chute at the right end of row 2). One JSON object on standard output:
{"status":"solved","moves":["B down 2", ...]} with the fewest moves (a slide of any length is
one move), or {"status":"unsolvable"}; either carries "stats":{"seconds":...}, the time spent
solving alone, so that Python's start-up is not counted as search. Extra words on the line (a
move count before the board, a cluster size after it) are ignored, so a database line works too.

With --serve the process stays up to spare a start per puzzle: it reads one puzzle a line until
the end of its input and writes one answer a line for each, flushed at once, since the other end
waits for it before sending the next. A line that holds no board gets
{"status":"error","message":...} rather than an exit, so that one bad line does not end the
rest; without --serve such a line is an error exit, as before.

    echo 'ooBCCCDoBEFFDAAEGooHooGIoHJJGIoKKLLo' | python3 examples/external/rushhour_bfs.py
    head -100 data/rushhour/rush_every32.txt | python3 examples/external/rushhour_bfs.py --serve
"""

import json
import sys
import time
from collections import deque

SIZE = 6
EXIT_ROW = 2


class BadBoard(ValueError):
    """A line that holds no board this solver can read: an error answer in serve mode, an exit otherwise."""


def read_board(line):
    boards = [word for word in line.split() if len(word) == SIZE * SIZE]
    if len(boards) != 1:
        raise BadBoard(f"expected one board of {SIZE * SIZE} characters, got {line.strip()[:80]!r}")
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
    if "A" not in cells:
        raise BadBoard("no prisoner A on the board")
    # Each block: (name, horizontal, length, fixed row or column); its position is the other coordinate.
    blocks = []
    start = []
    for name in sorted(cells):
        spots = sorted(cells[name])
        horizontal = len({row for row, _ in spots}) == 1
        # A block in pieces or bent would make no sense as slides, so it is no board.
        if spots != [(spots[0][0] + (0 if horizontal else k), spots[0][1] + (k if horizontal else 0)) for k in range(len(spots))]:
            raise BadBoard(f"block {name} is not one straight run of cells")
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


def answer(line):
    """The one-line JSON answer to a puzzle line; the clock runs around the search alone."""
    blocks, walls, start = read_board(line)
    began = time.perf_counter()
    moves = solve(blocks, walls, start)
    seconds = time.perf_counter() - began
    result = {"status": "unsolvable"} if moves is None else {"status": "solved", "moves": moves}
    result["stats"] = {"seconds": round(seconds, 9)}
    return json.dumps(result)


def serve():
    # Bytes, decoded leniently: a line that is not UTF-8 is one more bad line, not the end.
    while True:
        raw = sys.stdin.buffer.readline()
        if not raw:
            return
        try:
            reply = answer(raw.decode("utf-8", errors="replace"))
        except Exception as error:  # whatever the line did, answer it and keep serving
            reply = json.dumps({"status": "error", "message": str(error) or type(error).__name__})
        print(reply, flush=True)


def main():
    if sys.argv[1:] == ["--serve"]:
        serve()
        return
    if sys.argv[1:]:
        raise SystemExit("usage: rushhour_bfs.py [--serve]")
    try:
        print(answer(sys.stdin.readline()))
    except BadBoard as error:
        raise SystemExit(f"rushhour_bfs: {error}")


main()
