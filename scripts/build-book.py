#!/usr/bin/env python3
"""Writes a section of crosscut's Hex opening book (src/games/hex/book.txt).

For a board size, without swap, it asks the engine, searching to a fixed
depth (so the book is reproducible from a build), for Black's first move
and for White's reply to every first move. A first move and its half-turn
give turned replies, so only one of each pair is searched. Each search
runs in its own engine process (nothing carried over from another), and
`--jobs` of them at a time.

    scripts/build-book.py --engine target/release/crosscut --size 11 --depth 5 --jobs 2

prints the section on standard output (paste it into book.txt, replacing
that size's section).
"""

import argparse
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

LETTERS = "abcdefghijklmnopqrstuvwxyz"


def cell(col, row):
    return f"{LETTERS[col]}{row}"


def parse(move):
    return LETTERS.index(move[0]), int(move[1:])


def turned(move, size):
    col, row = parse(move)
    return cell(size - 1 - col, size + 1 - row)


def genmove(engine, size, depth, moves):
    """The engine's move after `moves` (from the start, no swap)."""
    lines = ["game hex", f"boardsize {size}", "swap off", "param book false",
             "param verbose false", "param move_time 0", f"param max_depth {depth}"]
    color = "b"
    for m in moves:
        lines.append(f"play {color} {m}")
        color = "w" if color == "b" else "b"
    lines.append(f"genmove {color}")
    # Standard input stays open until the answer: with no time limit the
    # end of the input would stop the search.
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    answer = None
    for line in lines:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        answer = proc.stdout.readline().strip()
        proc.stdout.readline()
        if not answer.startswith("="):
            sys.exit(f"engine refused '{line}' after {moves}: {answer}")
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait()
    return answer.lstrip("=").strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="target/release/crosscut")
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    n = args.size
    cells = [cell(c, r) for r in range(1, n + 1) for c in range(n)]
    # One of each half-turn pair (the centre is its own).
    firsts = [m for m in cells if cells.index(turned(m, n)) >= cells.index(m)]
    jobs = [[]] + [[m] for m in firsts]
    start = time.time()
    with ThreadPoolExecutor(args.jobs) as pool:
        replies = list(pool.map(lambda ms: genmove(args.engine, n, args.depth, ms), jobs))
    found = {(): replies[0]}
    for (m,), r in zip(jobs[1:], replies[1:]):
        found[(m,)] = r
        found[(turned(m, n),)] = turned(r, n)
    secs = time.time() - start
    print(f"[hex {n} swap=off]")
    print(f"# scripts/build-book.py --size {n} --depth {args.depth}: "
          f"{len(jobs)} searches, {secs:.0f} s")
    print(f": {found[()]}")
    for m in cells:
        print(f"{m} : {found[(m,)]}")


if __name__ == "__main__":
    main()
