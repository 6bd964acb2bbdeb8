#!/usr/bin/env python3
"""Writes a section of crosscut's Hex opening book (src/games/hex/book.txt).

For a board size, without swap, it asks the engine, searching to a fixed
depth (so the book is reproducible from a build), for Black's first move
and for White's reply to every first move. A first move and its half-turn
give turned replies, so only one of each pair is searched. Each search
runs in its own engine process (nothing carried over from another), and
`--jobs` of them at a time.

    scripts/build-book.py --engine target/release/crosscut --size 11 --depth 6 --jobs 2

prints the section on standard output (paste it into book.txt, replacing
that size's section). With `--swap` it writes the section with swap from
the same searches' scores: White swaps all but the share `--keep` of the
first moves it scores best for itself, answers those as without swap, and
answers after a swap as without swap too (the same position); Black opens
with the strongest first move White would answer. `--values` prints each
first move's score and reply instead, and `--from-values FILE` writes a
section from such a file without searching the first moves again (the
section without swap searches Black's first move, one search):

    scripts/build-book.py --size 11 --depth 6 --values > v11.txt
    scripts/build-book.py --size 11 --swap --keep 0.2 --from-values v11.txt
    scripts/build-book.py --size 11 --depth 6 --from-values v11.txt
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


WIN = 100_000


def score_of(info):
    """The score of an `info` line, from the side to move's view: `cp N`
    as N, a proven `win N` / `loss N` as far beyond any `cp`."""
    words = info.split()
    kind, n = words[words.index("score") + 1], int(words[words.index("score") + 2])
    return {"cp": n, "win": WIN - n, "loss": n - WIN}[kind]


def analyze(engine, size, depth, moves):
    """The engine's move after `moves` (from the start, no swap) and its
    score for the side to move, from `analyze` (the search of `genmove`)."""
    lines = ["game hex", f"boardsize {size}", "swap off", "param book false",
             "param verbose false", "param move_time 0", f"param max_depth {depth}"]
    color = "b"
    for m in moves:
        lines.append(f"play {color} {m}")
        color = "w" if color == "b" else "b"
    lines.append(f"analyze {color}")
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
    # `analyze` answers the line, then the static evaluation (read
    # above), then the blank line.
    proc.stdout.readline()
    proc.stdin.write("quit\n")
    proc.stdin.close()
    proc.wait()
    info = answer.lstrip("=").strip()
    return info.split(" pv ")[1].split()[0], score_of(info)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="target/release/crosscut")
    ap.add_argument("--size", type=int, required=True)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--swap", action="store_true",
                    help="write the section with swap (swap=on) instead of without")
    ap.add_argument("--keep", type=float, default=0.2,
                    help="with --swap: the share of first moves White answers "
                    "instead of swapping, those it scores best for itself")
    ap.add_argument("--values", action="store_true",
                    help="print each first move's score for White and White's reply "
                    "instead of a section")
    ap.add_argument("--from-values", metavar="FILE",
                    help="take the first moves' scores and replies from a --values "
                    "output instead of searching them (without --swap, Black's "
                    "first move is still searched: one search)")
    args = ap.parse_args()
    if args.from_values and args.values:
        ap.error("--from-values writes a section: not with --values")
    n = args.size
    cells = [cell(c, r) for r in range(1, n + 1) for c in range(n)]
    # One of each half-turn pair (the centre is its own).
    firsts = [m for m in cells if cells.index(turned(m, n)) >= cells.index(m)]
    # Without swap Black's first move is searched too; with it, the
    # opening comes from the first moves' scores.
    jobs = ([] if args.swap or args.values else [[]]) + [[m] for m in firsts]
    reply, score = {}, {}
    if args.from_values:
        lines = open(args.from_values).read().splitlines()
        # The values file's header names its searches: "--size N --depth D:
        # K searches, S s".
        given, done = lines[0].lstrip("# ").split(":", 1)
        for line in lines[1:]:
            m, v, r = line.split()
            reply[m], score[m] = r, int(v)
        if args.swap:
            head = f"{given} --swap --keep {args.keep}: {done.strip()}"
        else:
            if f"--depth {args.depth}" not in given:
                ap.error(f"the values are '{given}': give the same --depth")
            start = time.time()
            reply[()] = analyze(args.engine, n, args.depth, [])[0]
            head = f"{given}: {done.strip()} and 1 search, {time.time() - start:.0f} s"
    else:
        start = time.time()
        with ThreadPoolExecutor(args.jobs) as pool:
            found = list(pool.map(lambda ms: analyze(args.engine, n, args.depth, ms), jobs))
        secs = time.time() - start
        for ms, (r, v) in zip(jobs, found):
            if not ms:
                reply[()] = r
                continue
            (m,) = ms
            reply[m], reply[turned(m, n)] = r, turned(r, n)
            score[m] = score[turned(m, n)] = v
        head = (f"--size {n} --depth {args.depth}"
                f"{f' --swap --keep {args.keep}' if args.swap else ''}: "
                f"{len(jobs)} searches, {secs:.0f} s")
    if args.values:
        print(f"# {head}")
        for m in cells:
            print(f"{m} {score[m]} {reply[m]}")
        return
    if not args.swap:
        print(f"[hex {n} swap=off]")
        print(f"# scripts/build-book.py {head}")
        print(f": {reply[()]}")
        for m in cells:
            print(f"{m} : {reply[m]}")
        return
    # With swap, White answers the share `--keep` of the first moves that
    # it scores best for itself (with any of equal score) as without swap,
    # and swaps the others. The engine's scores rank the first moves well
    # but are not calibrated across sizes: on 7x7 and 8x8 (solved maps)
    # the moves scoring below about -110 win for Black, while on 11x11
    # every score lies between -97 and -15. So the decision is a share,
    # not a score: about the share of losing openings on the board.
    # After a swap the first player, now White, faces the same position
    # and answers the same. Black opens with the strongest first move that
    # White answers rather than swaps (on ties, the first in board order).
    ranked = sorted(cells, key=lambda m: -score[m])
    kept = max(1, round(args.keep * len(cells)))
    threshold = score[ranked[kept - 1]]
    answered = [m for m in cells if score[m] >= threshold]
    opening = min(answered, key=lambda m: score[m])
    print(f"[hex {n} swap=on]")
    print(f"# scripts/build-book.py {head}")
    print(f": {opening}")
    for m in cells:
        print(f"{m} : {reply[m] if m in answered else 'swap'}")
    for m in cells:
        print(f"{m} swap : {reply[m]}")


if __name__ == "__main__":
    main()
