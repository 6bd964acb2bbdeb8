#!/usr/bin/env python3
"""benzene-losses.py [--name NAME] [--time S] [--mohex PATH] GAME.sgf...

Where did crosscut lose? For each Hex game record of crosscut-match (SGF,
no swap) that the engine NAME (default crosscut, as in PB/PW) lost, walks
back over NAME's moves from the end and asks MoHex's DFPN
(`dfpn-solve-state`, S seconds a position, default 15) who wins the
position before each of them, until one is won for NAME (its move there
lost the game: printed with the moves Benzene's `dfpn-solver-find-winning`
names) or undecided (the game was lost before the solver sees it: the
ply is printed), or lost before each of NAME's moves. One line a game:

  FILE us=B ply=30 played=k7 winning=d3 a4 b5 moves=46 prefix=MOVES...
  FILE us=W unknown-before-ply=23 moves=47
  FILE us=W lost-from-ply=1 moves=21

MoHex is ../shared/tools/benzene/bin/mohex beside the repository, or
--mohex PATH (run `setup.sh` there once). docs/tuning-log.md, the MoHex
row of the twenty-fourth session, has a run.
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MOHEX = os.path.join(HERE, "..", "..", "shared", "tools", "benzene", "bin", "mohex")


def parse(path):
    """(size, black player, result, [(colour, move)]) of an SGF record."""
    text = open(path, encoding="utf-8").read()
    size = int(re.search(r"SZ\[(\d+)\]", text).group(1))
    black = re.search(r"PB\[([^\]]*)\]", text).group(1)
    result = re.search(r"RE\[([^\]]*)\]", text).group(1)
    moves = re.findall(r";([BW])\[([a-z]+\d+)\]", text)
    return size, black, result, moves


class Mohex:
    """A MoHex process answering one HTP command at a time."""

    def __init__(self, path):
        self.p = subprocess.Popen([path, "--quiet", "--use-logfile=0"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            got = self.p.stdout.readline()
            if got == "":
                sys.exit(f"benzene-losses.py: MoHex ended at '{line}'")
            if got.strip() == "":
                if out:
                    break
                continue
            out.append(got.strip())
        answer = " ".join(out)
        if answer.startswith("?"):
            sys.exit(f"benzene-losses.py: MoHex refused '{line}': {answer}")
        return answer.lstrip("= ").strip()

    def setup(self, size, moves):
        self.cmd(f"boardsize {size}")
        for colour, move in moves:
            self.cmd(f"play {colour.lower()} {move}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    ap.add_argument("--name", default="crosscut")
    ap.add_argument("--time", type=float, default=15.0)
    ap.add_argument("--mohex", default=DEFAULT_MOHEX)
    ap.add_argument("games", nargs="+")
    a = ap.parse_args()
    if not os.access(a.mohex, os.X_OK):
        sys.exit(f"benzene-losses.py: no MoHex at {a.mohex} (--mohex PATH)")
    mohex = Mohex(a.mohex)
    mohex.cmd(f"param_dfpn timelimit {a.time}")
    for path in a.games:
        size, black, result, moves = parse(path)
        us = "B" if black == a.name else "W"
        if result.startswith(us):
            continue
        colour = "black" if us == "B" else "white"
        name = os.path.basename(path)
        ours = [i for i, (c, _) in enumerate(moves) if c == us]
        # Every position before NAME's moves lost: lost from the first.
        line = f"{name} us={us} lost-from-ply={ours[0] if ours else 0} moves={len(moves)}"
        for i in reversed(ours):
            mohex.setup(size, moves[:i])
            winner = mohex.cmd(f"dfpn-solve-state {colour}")
            if winner == colour:
                winning = mohex.cmd(f"dfpn-solver-find-winning {colour}")
                prefix = " ".join(m for _, m in moves[:i])
                line = (f"{name} us={us} ply={i} played={moves[i][1]} winning={winning} "
                        f"moves={len(moves)} prefix={prefix}")
                break
            if winner not in ("black", "white"):
                line = f"{name} us={us} unknown-before-ply={i} moves={len(moves)}"
                break
        print(line, flush=True)


main()
