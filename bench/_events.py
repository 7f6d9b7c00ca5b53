"""The order-of-events fixture: one user's months of sessions in which several threads of
events (a move, a new job, a race, a trip...) happen in order, interleaved.

Each thread follows a template family: four events in a fixed order ("I signed the lease
for the flat on Linden Street" → "I packed the last boxes for the flat" → ...), with
other names and places in each history. Every session holds one event of one thread (the
user's message, the assistant's reply, often a "Thanks!"), or small talk. Questions:

* ``after``: "What did I do after I {event}?": the event the user told of next (of any
  thread: the next thing they did), which shares no word with the question;
* ``before``: "What did I do before I {event}?": the event told of just before;
* ``sequence``: "How did {the thread} go over the sessions?": every event of the thread,
  which must be listed in the order they happened.

Split by template family with a fixed seed (dev / test): a question belongs to the
family of the event it names. ``python bench/_events.py`` rewrites
``bench/data/events.json`` (deterministic).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sys
from pathlib import Path
from typing import Any

SEED = 33
HISTORIES = 6
DATA = Path(__file__).resolve().parent / "data" / "events.json"
START = dt.datetime(2025, 2, 3, 18, 30)

# family: (the sequence question, [(message, the phrase "after I ..." names it by)]),
# with {x} a name drawn per history
FAMILIES: dict[str, tuple[str, list[tuple[str, str]], list[str]]] = {
    "move": (
        "How did my move to the new flat go over the sessions?",
        [
            ("I signed the lease for the flat on {x} Street today.", "signed the lease"),
            ("I packed the last boxes for the flat this weekend.", "packed the last boxes"),
            ("We moved into the flat on {x} Street yesterday!", "moved into the flat"),
            ("I hosted a housewarming party in the new flat.", "hosted a housewarming party"),
        ],
        ["Linden", "Harbour", "Maple", "Station", "Mill", "Quarry"],
    ),
    "job": (
        "How did my job change at {x} go over the sessions?",
        [
            ("I had a first interview at {x} this morning.", "had a first interview"),
            ("{x} sent me an offer, better pay than now.", "got the offer"),
            ("I handed in my notice at my old job.", "handed in my notice"),
            ("First day at the new job at {x} today, the team seems nice.", "started the new job"),
        ],
        ["Globex", "Initech", "Northwind", "Hooli", "Vandelay", "Acme"],
    ),
    "race": (
        "How did my training for the {x} marathon go over the sessions?",
        [
            ("I signed up for the {x} marathon in the spring.", "signed up for the marathon"),
            ("I ran 30 km for the first time, training for the {x} marathon.", "ran 30 km"),
            ("My knee hurts, the physio says rest two weeks before the marathon.", "hurt my knee"),
            ("I finished the {x} marathon in just under four hours!", "finished the marathon"),
        ],
        ["Berlin", "Vienna", "Porto", "Seville", "Lyon", "Dublin"],
    ),
    "trip": (
        "How did my trip to {x} come together over the sessions?",
        [
            ("I booked the flights to {x} for the autumn trip.", "booked the flights"),
            ("My visa for the trip to {x} was approved.", "got the visa"),
            ("Landed in {x} an hour ago, the trip begins!", "landed"),
            ("Back home from the trip to {x}, tired but happy.", "came back home"),
        ],
        ["Tokyo", "Lima", "Nairobi", "Hanoi", "Montreal", "Auckland"],
    ),
    "course": (
        "How did my {x} course go over the sessions?",
        [
            ("I enrolled in an evening {x} course at the college.", "enrolled in the course"),
            ("I handed in the first assignment of the {x} course.", "handed in the assignment"),
            ("I failed the midterm of the {x} course, need to study more.", "failed the midterm"),
            ("I passed the {x} course with a good grade in the final!", "passed the final"),
        ],
        ["Spanish", "statistics", "pottery", "photography", "accounting", "drawing"],
    ),
    "kitchen": (
        "How did the kitchen renovation go over the sessions?",
        [
            (
                "The builder from {x} measured the kitchen for the renovation.",
                "had the kitchen measured",
            ),
            ("We tore out the old kitchen cabinets.", "tore out the old cabinets"),
            ("The new worktop for the kitchen was installed, oak.", "got the worktop installed"),
            ("The kitchen renovation is finished, {x} did a great job.", "finished the renovation"),
        ],
        ["Hammer & Sons", "BuildRight", "Oakline", "Keller Bau", "Fixit", "Stonebridge"],
    ),
    "garden": (
        "How did my plan for the garden change over the sessions?",
        [
            ("My plan for the garden is to grow {x} along the fence.", "planned the garden"),
            (
                "New plan for the garden: a greenhouse instead, the fence is too shady.",
                "changed the garden plan",
            ),
            ("I built the greenhouse at the end of the garden.", "built the greenhouse"),
            ("First harvest from the greenhouse in the garden: {x}!", "had the first harvest"),
        ],
        ["tomatoes", "beans", "peppers", "cucumbers", "courgettes", "squash"],
    ),
    "car": (
        "How did buying the {x} go over the sessions?",
        [
            ("I test-drove a used {x} at the dealer.", "test-drove the car"),
            ("I got a loan approved for the {x}.", "got the loan"),
            ("I picked up the {x} from the dealer, it's mine now.", "picked up the car"),
            ("The {x} failed its first inspection, brakes need work.", "failed the car inspection"),
        ],
        ["Skoda Octavia", "Mazda 3", "Volvo V60", "Honda Civic", "Renault Clio", "Toyota Corolla"],
    ),
}

SMALL_TALK = [
    "Can you suggest a quick dinner with what's in my fridge?",
    "What's a good podcast for a long drive?",
    "How do I keep basil alive on a windowsill?",
    "Any tips for sleeping better when it's hot?",
    "What should I read next, something light?",
]
REPLIES = [
    "That's a big step, well done. Keep a note of what worked, it helps next time.",
    "Congratulations! Take a moment to enjoy it before the next thing.",
    "Sounds like it is coming along. Let me know if you want help planning the next part.",
    "Good to hear. Small steps add up, and you are clearly making progress.",
]


def split_of() -> dict[str, str]:
    """Template family -> ``dev`` or ``test`` (fixed seed, half each)."""
    names = sorted(FAMILIES)
    random.Random(SEED).shuffle(names)
    return {n: ("dev" if i < len(names) // 2 else "test") for i, n in enumerate(names)}


def build(seed: int = SEED) -> dict[str, Any]:
    """Every history and question (see the module docstring)."""
    rng = random.Random(seed)
    split = split_of()
    out: dict[str, Any] = {"histories": [], "questions": []}
    for h in range(HISTORIES):
        hname = f"ev{h}"
        # interleave the threads: each family's events in order, families shuffled
        queues = {f: list(range(len(FAMILIES[f][1]))) for f in FAMILIES}
        values = {f: FAMILIES[f][2][(h + rng.randrange(6)) % 6] for f in FAMILIES}
        plan: list[tuple[str, int] | None] = []
        while any(queues.values()):
            f = rng.choice([f for f, q in queues.items() if q])
            plan.append((f, queues[f].pop(0)))
            if rng.random() < 0.3:
                plan.append(None)
        day = START + dt.timedelta(days=rng.randint(0, 10))
        sessions: list[dict[str, Any]] = []
        told: list[tuple[str, int, str]] = []  # (family, index, key) in time order
        for i, item in enumerate(plan):
            day += dt.timedelta(days=rng.randint(2, 6), minutes=rng.randint(0, 120))
            sid = f"{hname}-s{i:02d}"
            msgs: list[dict[str, Any]] = []
            if item is None:
                msgs.append({"role": "user", "content": rng.choice(SMALL_TALK), "key": None})
                msgs.append({"role": "assistant", "content": rng.choice(REPLIES), "key": None})
            else:
                f, idx = item
                text = FAMILIES[f][1][idx][0].format(x=values[f])
                key = f"{sid}:event"
                msgs.append({"role": "user", "content": text, "key": key})
                msgs.append({"role": "assistant", "content": rng.choice(REPLIES), "key": None})
                if rng.random() < 0.5:
                    msgs.append({"role": "user", "content": "Thanks!", "key": None})
                told.append((f, idx, key))
            when = day
            for m in msgs:
                m["time"] = when.isoformat(timespec="minutes")
                when += dt.timedelta(minutes=rng.randint(1, 5))
            sessions.append({"id": sid, "messages": msgs})
        for pos, (f, idx, key) in enumerate(told):
            phrase = FAMILIES[f][1][idx][1]
            base = {"history": hname, "family": f, "split": split[f], "named": key}
            if pos + 1 < len(told):
                out["questions"].append({**base, "kind": "after",
                    "question": f"What did I do after I {phrase}?",
                    "evidence": [told[pos + 1][2]]})  # fmt: skip
            if pos > 0:
                out["questions"].append({**base, "kind": "before",
                    "question": f"What did I do before I {phrase}?",
                    "evidence": [told[pos - 1][2]]})  # fmt: skip
        for f in FAMILIES:
            keys = [k for ff, _, k in told if ff == f]
            out["questions"].append({"history": hname, "family": f, "split": split[f],
                "kind": "sequence", "question": FAMILIES[f][0].format(x=values[f]),
                "evidence": keys})  # fmt: skip
        out["histories"].append({"id": hname, "sessions": sessions})
    return out


def main() -> None:
    data = build()
    DATA.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    n = len(data["questions"])
    print(f"{n} questions -> {DATA}", file=sys.stderr)


if __name__ == "__main__":
    main()
