#!/usr/bin/env python3
"""Writes the committed River Toad roll files of results/river-toad/ (deterministic seeds).

uniform-N.txt: N rolls uniform over 0..33. Long files are almost never survivable (a 31,
    snakes in all five rivers, comes every 34 rolls on average).
planted-N.txt: N rolls with a surviving plan planted: a hidden toad walks the river (a step
    of one column now and then, towards a bank when it needs HP) and every roll is drawn
    uniformly among those that spare its column when they reach the bottom row; when it
    stands on column 1 or 5 with HP to spare or to regain, a fly may land beside it."""
import random

for n in (20, 100, 1000, 100000):
    rng = random.Random(n)
    with open(f"uniform-{n}.txt", "w") as f:
        f.write(f"{n} # uniform random rolls, seed {n} (make_rolls.py)\n")
        f.writelines(f"{rng.randrange(34)}\n" for _ in range(n))
    rng = random.Random(1000 + n)
    col, hp, rolls = 3, 20, [None] * n
    for k in range(1, n + 1):          # turn k: the hidden toad moves, roll k-4 arrives
        target = 1 if hp < 12 else col
        if target != col:
            step = -1
        elif rng.random() < 0.05:
            step = rng.choice([s for s in (-1, 1) if 1 <= col + s <= 5])
        else:
            step = 0
        col += step
        hp -= abs(step)
        if k > 4:
            i = k - 5
            if col == 1 and hp < 15 and rng.random() < 0.5:
                rolls[i] = 32
            elif col == 5 and rng.random() < 0.2:
                rolls[i] = 33
            else:
                rolls[i] = rng.choice([r for r in range(34) if not (1 <= r <= 31 and (r >> (5 - col)) & 1)])
            if rolls[i] == 32 and col == 1 or rolls[i] == 33 and col == 5:
                hp += 5
    rolls = [r if r is not None else rng.randrange(34) for r in rolls]
    with open(f"planted-{n}.txt", "w") as f:
        f.write(f"{n} # random rolls with a surviving plan planted, seed {1000 + n} (make_rolls.py)\n")
        f.writelines(f"{r}\n" for r in rolls)
