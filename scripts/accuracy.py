#!/usr/bin/env python3
"""Accuracy of genmove in won positions, measured with the solver.

Plays engine games (self-play at --game-time seconds a move, after a few
random opening moves for variety), then, for the positions of those games
from the end backwards (until two in a row are unknown), asks the solver (`solve`, --solve-time seconds)
whether the side to move has a forced win. In each won position, genmove
chooses a move at each of --times; the solver then tells whether the
position after it is still lost for the opponent (the win kept), won or
drawn for it (the win thrown away), or unknown (not counted).

Usage (from the repository, after `cargo build --release`):
  scripts/accuracy.py --game onyx --size 6 --option start=blank --games 10
  scripts/accuracy.py --game orcoon --size 5 --games 10

Prints one line per time setting: won positions tried, kept, thrown away,
unknown, and the share kept among the decided ones.
"""

import argparse
import random
import subprocess
import sys


class Engine:
    """A crosscut process spoken to line by line."""

    def __init__(self, binary, setup):
        self.p = subprocess.Popen(
            [binary],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        for line in setup:
            self.ok(line)

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        out = []
        while True:
            text = self.p.stdout.readline()
            if text == "":
                raise RuntimeError("the engine exited")
            if text == "\n":
                break
            out.append(text.rstrip("\n"))
        return "\n".join(out)

    def ok(self, line):
        answer = self.cmd(line)
        if not answer.startswith("="):
            raise RuntimeError(f"{line}: {answer}")
        return answer[1:].strip()

    def set_position(self, moves):
        self.ok("clear_board")
        for colour, mv in moves:
            self.ok(f"play {colour} {mv}")

    def close(self):
        try:
            self.cmd("quit")
        except (RuntimeError, BrokenPipeError):
            pass
        self.p.wait()


def side_to_move(engine):
    return engine.ok("gogui-rules_side_to_move")


def over(engine):
    return engine.cmd("final_score").startswith("=")


def play_game(engine, rng, random_moves, game_time):
    """A self-play game: its moves as (colour, move)."""
    engine.ok("clear_board")
    engine.ok(f"param move_time {game_time}")
    moves = []
    while not over(engine):
        colour = side_to_move(engine)
        if len(moves) < random_moves:
            legal = [
                m for m in engine.ok("legal_moves").split() if m not in ("swap", "pass")
            ]
            mv = rng.choice(legal)
            engine.ok(f"play {colour} {mv}")
        else:
            mv = engine.ok(f"genmove {colour}")
            if mv.lower() == "resign":
                break
        moves.append((colour, mv))
        if len(moves) > 400:
            break
    return moves


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default="target/release/crosscut")
    ap.add_argument("--game", default="onyx")
    ap.add_argument("--size", type=int, default=6)
    ap.add_argument("--option", action="append", default=[],
                    help="a game option NAME=VALUE, sent as the command of its name (repeatable)")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--random-moves", type=int, default=2)
    ap.add_argument("--game-time", type=float, default=0.1)
    ap.add_argument("--solve-time", type=float, default=5.0)
    ap.add_argument("--times", default="0.1,1")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    setup = [f"game {args.game}", f"boardsize {args.size}", "param verbose false"]
    for option in args.option:
        name, _, value = option.partition("=")
        setup.append(f"{name} {value}")
    times = [float(t) for t in args.times.split(",")]
    rng = random.Random(args.seed)
    player = Engine(args.binary, setup)
    solver = Engine(args.binary, setup + ["param solve_hash 256"])
    stats = {t: [0, 0, 0, 0] for t in times}  # tried, kept, thrown, unknown
    won_positions = 0
    to_end = []  # plies from each won position to the game's end
    positions = 0
    for g in range(args.games):
        moves = play_game(player, rng, args.random_moves, args.game_time)
        solver.ok("clear_board")  # a new game: a fresh solver table
        # From the end backwards: the solver's proofs of later positions
        # help with earlier ones, and once two positions in a row are
        # unknown the earlier ones are left out.
        unknown_run = 0
        for n in range(len(moves) - 1, 1, -1):
            if unknown_run >= 2:
                break
            prefix = moves[:n]
            solver.set_position(prefix)
            if over(solver):
                continue
            positions += 1
            colour = side_to_move(solver)
            value = solver.ok(f"solve {colour} {args.solve_time}").split()[0]
            unknown_run = unknown_run + 1 if value == "unknown" else 0
            if value != "win":
                continue
            won_positions += 1
            to_end.append(len(moves) - n)
            for t in times:
                player.set_position(prefix)
                player.ok(f"param move_time {t}")
                mv = player.ok(f"genmove {colour}")
                s = stats[t]
                s[0] += 1
                solver.ok(f"play {colour} {mv}")
                if over(solver):
                    s[1] += 1
                else:
                    after = solver.ok(f"solve {args.solve_time}").split()[0]
                    if after == "loss":
                        s[1] += 1
                    elif after == "unknown":
                        s[3] += 1
                    else:
                        s[2] += 1
                        print(
                            f"  game {g + 1}: after {' '.join(m for _, m in prefix)}: "
                            f"{colour} {mv} at {t} s throws the win away ({after})",
                            flush=True,
                        )
                solver.ok("undo")
        print(
            f"game {g + 1}/{args.games}: {len(moves)} moves; "
            f"{won_positions} won positions of {positions} so far",
            flush=True,
        )
    player.close()
    solver.close()
    name = f"{args.game} {args.size}x{args.size}" + "".join(f" {o}" for o in args.option)
    print(
        f"\n{name}: {positions} positions from {args.games} games, "
        f"{won_positions} won for the side to move"
    )
    if to_end:
        to_end.sort()
        print(
            f"plies from a won position to the game's end: median {to_end[len(to_end) // 2]}, "
            f"most {to_end[-1]}"
        )
    for t in times:
        tried, kept, thrown, unknown = stats[t]
        decided = kept + thrown
        share = f"{100.0 * kept / decided:.1f}%" if decided else "n/a"
        print(
            f"genmove {t} s: {tried} won positions, kept {kept}, thrown away {thrown}, "
            f"unknown {unknown}: {share} kept"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
