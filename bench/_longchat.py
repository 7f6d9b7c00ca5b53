"""The long-chat fixture: months of chat between one user and an assistant whose replies
are long, next to the short messages where the user states facts.

Each history is one user's sessions, a few days apart. In most sessions the user asks for
help on a topic and the assistant answers at length (several paragraphs full of the
topic's words); somewhere in the exchange the user mentions a fact of their own in one
short message ("I adopted a cat named Miso last weekend"). Questions are written from
specific messages, in the categories of long-memory benchmarks:

* ``user-fact``: a detail the user stated (the short message is the evidence, its
  neighbour is a long reply on the same topic);
* ``assistant``: a detail of an assistant reply ("What temperature did you suggest ...");
* ``multi-session``: facts of one kind spread over two or three sessions (every one is
  evidence);
* ``order``: what the user did after an event (the next event's message);
* ``update``: a fact that changed (the latest statement is the evidence).

Split by history with a fixed seed (dev / test). ``python bench/_longchat.py`` rewrites
``bench/data/longchat.json`` (deterministic).
"""

from __future__ import annotations

import datetime as dt
import json
import random
import sys
from pathlib import Path
from typing import Any

SEED = 41
HISTORIES = 10
SESSIONS = 30
DATA = Path(__file__).resolve().parent / "data" / "longchat.json"
START = dt.datetime(2025, 1, 6, 19, 0)

# Topic: the user's request, the facts they may state (with the question written from
# them and the answer's words), and sentences the assistant's long replies are built
# from (the topic's words again and again).
TOPICS: dict[str, dict[str, Any]] = {
    "cat": {
        "ask": "My new cat keeps scratching the sofa. How do I get her to stop?",
        "facts": [
            (
                "I adopted a cat named {name} from the shelter last weekend.",
                "What is the name of the cat I adopted?",
                "name",
            ),
            (
                "The vet said my cat weighs {kg} kilos, a bit heavy for her age.",
                "How much does my cat weigh according to the vet?",
                "kg",
            ),
        ],
        "reply": [
            "Cats scratch to mark territory and to keep their claws in shape, so the goal "
            "is to redirect the scratching rather than stop it.",
            "Put a tall, sturdy scratching post right next to the sofa, where your cat "
            "already scratches, and reward her with a treat every time she uses it.",
            "Double-sided tape or a throw over the sofa arm makes the old spot unpleasant "
            "while the new habit forms.",
            "Trim the cat's claws every two weeks; soft nail caps are another option.",
            "Play with your cat for ten minutes twice a day: a tired cat scratches less.",
            "Never punish a cat for scratching; it only makes her scratch when you are away.",
            "A pheromone diffuser near the sofa can calm a cat in a new home.",
        ],
    },
    "sourdough": {
        "ask": "My sourdough loaves come out flat. What am I doing wrong?",
        "facts": [
            (
                "My sourdough starter is called {name} and it lives on the fridge door.",
                "What did I name my sourdough starter?",
                "name",
            ),
            (
                "I bake with {flour} flour because that is what the mill near me sells.",
                "Which flour do I bake my sourdough with?",
                "flour",
            ),
        ],
        "reply": [
            "A flat sourdough loaf usually means the dough was under-proofed or "
            "over-proofed, or that it lacked tension when you shaped it.",
            "Feed your sourdough starter and use it at its peak, when it has doubled and "
            "smells pleasantly sour.",
            "During bulk fermentation do three or four sets of stretch and folds to build "
            "strength in the dough.",
            "Shape the loaf tightly and let it rest seam side up in a floured banneton.",
            "A cold retard in the fridge overnight makes the dough easier to score and gives "
            "a better oven spring.",
            "Bake in a preheated Dutch oven at 250 degrees with the lid on for twenty "
            "minutes, then lower to 230 degrees without the lid.",
            "Higher hydration doughs spread more; lower the water a little until your "
            "shaping improves.",
        ],
    },
    "marathon": {
        "ask": "Can you build me a training plan for my first marathon?",
        "facts": [
            (
                "My goal for the marathon is to finish under {hours} hours.",
                "What is my finishing-time goal for the marathon?",
                "hours",
            ),
            (
                "I run in {shoe} shoes, they are the only ones that don't hurt my knees.",
                "Which running shoes do I wear?",
                "shoe",
            ),
        ],
        "reply": [
            "A first marathon plan usually runs sixteen to twenty weeks and builds your "
            "weekly mileage by no more than ten percent a week.",
            "Most runs should be easy, at a pace where you can still talk; one run a week "
            "can hold some tempo or intervals.",
            "The long run is the heart of marathon training: start around 12 kilometres and "
            "build to 32 kilometres three weeks before race day.",
            "Practise your race-day nutrition on long runs: a gel every 40 minutes and water "
            "at every station.",
            "Taper for the last two to three weeks so your legs arrive fresh at the start line.",
            "Strength work for the hips and calves twice a week keeps running injuries away.",
            "Sleep is training too: runners who sleep less recover more slowly.",
        ],
    },
    "garden": {
        "ask": "What vegetables can I grow on a small balcony?",
        "facts": [
            (
                "My balcony faces {side}, so it gets sun only part of the day.",
                "Which direction does my balcony face?",
                "side",
            ),
            (
                "I planted {plant} in the big blue pot by the railing.",
                "What did I plant in the big blue pot?",
                "plant",
            ),
        ],
        "reply": [
            "A balcony garden does best with compact vegetables in deep containers: cherry "
            "tomatoes, peppers, lettuce, radishes and herbs.",
            "Vegetables need at least six hours of sun; leafy greens cope with less than "
            "fruiting plants like tomatoes.",
            "Use a light potting mix, not garden soil, and make sure every pot drains.",
            "Water the containers in the morning; on a hot balcony pots dry out fast.",
            "Feed fruiting vegetables every two weeks once they flower.",
            "Vertical planters and railing boxes double the growing space of a small balcony.",
            "Check the weight limit of the balcony before you fill large pots with wet soil.",
        ],
    },
    "python": {
        "ask": "My Python script that parses log files is really slow. How can I speed it up?",
        "facts": [
            (
                "The log files I parse come from our {system} cluster, about 40 GB a day.",
                "Which cluster do the log files I parse come from?",
                "system",
            ),
            (
                "My script runs every night at {hour} from a cron job.",
                "At what time does my log-parsing script run?",
                "hour",
            ),
        ],
        "reply": [
            "Start by profiling the script with cProfile to see where the time goes before "
            "changing any code.",
            "Read the log file line by line instead of loading it whole; a generator keeps "
            "memory flat.",
            "Compile your regular expressions once outside the loop, or use str methods "
            "when a plain split is enough.",
            "Parsing in parallel with multiprocessing helps when each log file is independent.",
            "If the log lines are JSON, orjson parses them several times faster than the "
            "json module.",
            "Write results in batches rather than one line at a time.",
            "For the largest log files, consider a columnar format like Parquet for the "
            "output so later queries are faster.",
        ],
    },
    "budget": {
        "ask": "Help me set up a monthly budget, I never know where my money goes.",
        "facts": [
            (
                "My rent is {amount} euros a month, paid on the first.",
                "How much is my monthly rent?",
                "amount",
            ),
            (
                "I am saving for a {goal}, that is my big goal this year.",
                "What am I saving for this year?",
                "goal",
            ),
        ],
        "reply": [
            "A simple budget splits your income into needs, wants and savings; the 50/30/20 "
            "rule is a good first split.",
            "Track every expense for a month before you set the budget, so the categories "
            "match how you really spend.",
            "Automate your savings: move money to a savings account on the day your salary "
            "arrives.",
            "Keep an emergency fund of three to six months of expenses before investing.",
            "Review the budget monthly; adjust categories rather than giving up on them.",
            "Subscriptions are the easiest cuts: list them all and cancel what you forgot "
            "you pay for.",
            "Use separate accounts for bills and spending money so the budget is visible.",
        ],
    },
    "guitar": {
        "ask": "I'm learning guitar. How should I practise to get better faster?",
        "facts": [
            (
                "I practise on a {guitar} guitar my uncle gave me.",
                "Which guitar do I practise on?",
                "guitar",
            ),
            (
                "The first song I want to play properly is {song}.",
                "Which song do I want to learn to play first?",
                "song",
            ),
        ],
        "reply": [
            "Short daily guitar practice beats one long session a week: twenty focused "
            "minutes a day is plenty at first.",
            "Warm up with finger exercises and chromatic runs, then work on chords.",
            "Practise chord changes slowly with a metronome and speed up only when they are clean.",
            "Learn songs you love; they keep you practising when the exercises get boring.",
            "Record yourself playing once a week to hear what needs work.",
            "Keep the guitar out of its case on a stand so picking it up is easy.",
            "Calluses take a few weeks; short sessions protect your fingertips meanwhile.",
        ],
    },
    "trip": {
        "ask": "I'm planning a week in Japan. What should the itinerary look like?",
        "facts": [
            (
                "I booked a ryokan in {town} for two nights of the Japan trip.",
                "Where did I book the ryokan on my Japan trip?",
                "town",
            ),
            (
                "My flight to Japan lands at {airport} airport.",
                "At which airport does my flight to Japan land?",
                "airport",
            ),
        ],
        "reply": [
            "A first week in Japan often splits between Tokyo and Kyoto, with a day trip to "
            "Nara or Hakone.",
            "Buy a Japan Rail Pass only if you take several long trips; a single round trip "
            "from Tokyo to Kyoto rarely pays for it.",
            "Stay near a major station in Tokyo; the trains make the rest of the city easy.",
            "Kyoto's temples are quietest early in the morning, before the tour groups.",
            "A night in a ryokan with an onsen is worth the price once during the trip.",
            "Carry some cash: many small shops and restaurants in Japan still do not take cards.",
            "Pack light: hotel rooms in Japan are small and you will move between cities.",
        ],
    },
    "car": {
        "ask": "My car makes a squeaking noise when I brake. Should I worry?",
        "facts": [
            ("I drive a {car} that I bought second-hand in 2019.", "What car do I drive?", "car"),
            (
                "My mechanic is at the garage on {street} street.",
                "On which street is my mechanic's garage?",
                "street",
            ),
        ],
        "reply": [
            "A squeak when braking is often the wear indicator on the brake pads telling "
            "you they are getting thin.",
            "Moisture or dust on the brake discs can also squeak for the first few stops in "
            "the morning; that is harmless.",
            "Grinding instead of squeaking means metal on metal: get the car checked right away.",
            "Have the brake pads measured at your next service; replacing pads early is "
            "cheaper than replacing discs.",
            "If the car pulls to one side when braking, a caliper may be sticking.",
            "Brake fluid should be changed every two years; it absorbs water over time.",
            "After new pads, bed them in with a few moderate stops before hard braking.",
        ],
    },
    "sleep": {
        "ask": "I wake up tired every day. How can I sleep better?",
        "facts": [
            (
                "I usually go to bed around {bedtime} on weeknights.",
                "What time do I usually go to bed on weeknights?",
                "bedtime",
            ),
            (
                "My sleep tracker says I average {hours} hours of sleep.",
                "How many hours of sleep does my tracker say I average?",
                "hours",
            ),
        ],
        "reply": [
            "Waking up tired often comes from irregular sleep times more than from too few hours.",
            "Go to bed and wake up at the same time every day, weekends included.",
            "Keep the bedroom cool, dark and quiet; a fan or earplugs help in a noisy flat.",
            "Stop caffeine after noon: it stays in your body for many hours.",
            "Screens an hour before bed delay sleep; read a paper book instead.",
            "Morning daylight sets your body clock; a short walk after waking helps.",
            "If snoring or pauses in breathing are reported, ask a doctor about sleep apnoea.",
        ],
    },
}

TIPS: dict[str, tuple[str, str, list[str]]] = {
    "cat": (
        "For your cat I would get the {x} scratching post, it is tall enough for a full stretch.",
        "Which scratching post did you recommend for my cat?",
        [
            "Catit Vesper",
            "SmartCat Ultimate",
            "Frisco 32-inch",
            "Pioneer Pet Sisal",
            "PetFusion Tower",
        ],
    ),
    "sourdough": (
        "In your kitchen I would proof the dough for {x} at room temperature before shaping.",
        "How long did you suggest proofing my sourdough before shaping?",
        [
            "four and a half hours",
            "five hours",
            "three hours",
            "six hours",
            "five and a half hours",
        ],
    ),
    "marathon": (
        "Your first long run should be {x} kilometres this Sunday, nice and slow.",
        "How long did you say my first long run should be?",
        ["12", "14", "16", "11", "13"],
    ),
    "garden": (
        "On your balcony I would start with {x}, they forgive a lot.",
        "Which plants did you suggest I start with on the balcony?",
        [
            "Tumbling Tom tomatoes",
            "Little Gem lettuce",
            "French breakfast radishes",
            "Thai basil",
            "Padron peppers",
        ],
    ),
    "python": (
        "For your logs I would try the {x} library first, it fits this kind of parsing.",
        "Which library did you suggest for my log parsing?",
        ["polars", "pyarrow", "regex", "msgspec", "duckdb"],
    ),
    "budget": (
        "For your budget I would try the {x} app to track spending.",
        "Which budgeting app did you recommend?",
        ["YNAB", "Goodbudget", "Monarch", "Actual Budget", "Spendee"],
    ),
    "guitar": (
        "For your practice I would work through the {x} exercise every day.",
        "Which guitar exercise did you tell me to do every day?",
        [
            "spider walk",
            "one-minute changes",
            "chromatic ladder",
            "Travis picking drill",
            "pentatonic box",
        ],
    ),
    "trip": (
        "On your trip I would spend one day in {x}, it is easy from Kyoto.",
        "Which day trip from Kyoto did you suggest?",
        ["Nara", "Uji", "Himeji", "Kurama", "Arashiyama"],
    ),
    "car": (
        "For your car I would ask for {x} brake pads at the next service.",
        "Which brake pads did you suggest for my car?",
        ["ceramic", "semi-metallic", "low-dust organic", "Brembo Xtra", "Bosch QuietCast"],
    ),
    "sleep": (
        "For you I would try a wind-down routine starting at {x} every night.",
        "When did you suggest I start my wind-down routine?",
        ["9:45 pm", "10 pm", "10:15 pm", "9:30 pm", "10:30 pm"],
    ),
}
"""Per topic: a recommendation only one reply holds, the question asking it back, values."""

SLOTS: dict[str, list[str]] = {
    "name": [
        "Miso",
        "Pepper",
        "Biscuit",
        "Juniper",
        "Noodle",
        "Clementine",
        "Waffles",
        "Olive",
        "Pistachio",
        "Marble",
    ],
    "kg": ["4.2", "5.1", "5.8", "6.3", "3.9", "4.7"],
    "flour": ["spelt", "rye", "einkorn", "whole wheat", "emmer", "khorasan"],
    "hours": ["4", "4.5", "5", "3.5", "6", "7"],
    "shoe": ["Brooks Ghost", "Hoka Clifton", "Asics Novablast", "Saucony Ride", "On Cloudmonster"],
    "side": ["north-east", "west", "south-west", "east", "north-west"],
    "plant": [
        "cherry tomatoes",
        "chili peppers",
        "mint and basil",
        "strawberries",
        "kale",
        "dwarf beans",
    ],
    "system": ["Hadoop", "Kafka", "Cassandra", "Elasticsearch", "ClickHouse", "Spark"],
    "hour": ["2:15 am", "3:30 am", "1:45 am", "4:10 am", "11:50 pm"],
    "amount": ["780", "920", "1,150", "1,340", "650", "1,020"],
    "goal": [
        "used camper van",
        "trip to Patagonia",
        "new road bike",
        "deposit on a flat",
        "sailing course",
    ],
    "guitar": [
        "Yamaha FG800",
        "Fender Stratocaster",
        "Martin D-18",
        "Gibson Les Paul",
        "Taylor 114ce",
    ],
    "song": [
        "Blackbird",
        "Wonderwall",
        "Hotel California",
        "Wish You Were Here",
        "Layla",
        "Hallelujah",
    ],
    "town": ["Hakone", "Kanazawa", "Takayama", "Nikko", "Kinosaki"],
    "airport": ["Haneda", "Narita", "Kansai", "Chubu", "Fukuoka"],
    "car": [
        "Skoda Octavia",
        "Toyota Corolla",
        "Volvo V60",
        "Mazda 3",
        "Renault Clio",
        "Honda Civic",
    ],
    "street": ["Linden", "Harbour", "Maple", "Station", "Mill", "Quarry"],
    "bedtime": ["11:30 pm", "half past midnight", "10:45 pm", "1 am", "11 pm"],
}

EVENTS = [
    ("I ran my first half marathon on Saturday!", "ran my first half marathon"),
    ("I finally repainted the kitchen this weekend, a pale green.", "repainted the kitchen"),
    ("I started a pottery class on Tuesdays this week.", "started a pottery class"),
    ("We had my sister's wedding yesterday, it was lovely.", "went to my sister's wedding"),
    ("I switched teams at work today, I'm on the payments team now.", "switched teams at work"),
    ("I passed my driving test this morning!", "passed my driving test"),
    ("I went camping at the lake with friends this weekend.", "went camping at the lake"),
    ("I adopted a rescue dog yesterday, a beagle called Scout.", "adopted a rescue dog"),
]

SPREAD = [
    (
        "I visited {x} for a long weekend.",
        "Which cities did I visit for long weekends?",
        ["Porto", "Ghent", "Ljubljana", "Tallinn", "Bologna", "Lyon", "Krakow", "Bruges"],
    ),
    (
        "I finished reading {x} on the train.",
        "Which books did I finish reading on the train?",
        ["Middlemarch", "The Overstory", "Piranesi", "Stoner", "Circe", "Dune", "Beloved"],
    ),
    (
        "I tried a new recipe tonight: {x}.",
        "Which new recipes did I try?",
        ["mushroom risotto", "shakshuka", "pad thai", "lentil dal", "miso ramen", "paella"],
    ),
]

UPDATES = [
    (
        "I work at {x} as a data analyst.",
        "I just started a new job at {y}, I left {x}.",
        "Where do I work now?",
        ["Globex", "Initech", "Northwind", "Hooli", "Vandelay", "Acme"],
    ),
    (
        "My daily step goal is {x} steps.",
        "I raised my step goal to {y} steps a day.",
        "What is my daily step goal?",
        ["8,000", "10,000", "12,000", "7,500", "9,000"],
    ),
    (
        "My gym membership is at {x}.",
        "I moved my gym membership to {y}, closer to work.",
        "Which gym am I a member of?",
        ["FitBox", "Iron Temple", "PulseGym", "CoreClub", "Motion Lab"],
    ),
]

GENERIC = [
    "Small, consistent steps matter more than a perfect plan, so pick one change and keep "
    "it for two weeks before adding the next.",
    "Write down what you try and what happens; after a few weeks the notes show patterns "
    "that are hard to see day by day.",
    "If something feels wrong or gets worse, stop and ask a professional rather than "
    "pushing through.",
    "Most people see progress within a month, but the first week often feels slower than "
    "it really is.",
    "Set a reminder on your phone for the new routine until it becomes a habit.",
    "It also helps to tell a friend what you are working on; a little accountability goes "
    "a long way.",
    "Do not change everything at once, or you will not know which change made the difference.",
    "Budget a bit of time each week to review how it is going and adjust.",
    "Everyone's situation is different, so treat these as starting points, not rules.",
    "The details matter less than showing up regularly.",
]
"""Sentences any long reply may carry (the padding of a helpful assistant)."""

OPENERS = [
    "Sure, here is how I would approach it.",
    "Good question, this comes up a lot.",
    "Happy to help with that.",
    "Here is a practical way to think about it.",
]


def _reply(topic: dict[str, Any], rng: random.Random, extra: str | None = None) -> str:
    """A long assistant reply: an opener, then paragraphs of the topic's sentences."""
    sentences = rng.sample(topic["reply"], 6) + rng.sample(GENERIC, 4)
    rng.shuffle(sentences)
    paragraphs = [rng.choice(OPENERS)]
    for start in range(0, len(sentences), 3):
        paragraphs.append(" ".join(sentences[start : start + 3]))
    if extra:
        paragraphs.insert(rng.randint(1, len(paragraphs)), extra)
    paragraphs.append("Let me know how it goes and we can adjust from there.")
    return "\n\n".join(paragraphs)


def build(seed: int = SEED) -> dict[str, Any]:
    """Every history and every question (see the module docstring)."""
    rng = random.Random(seed)
    names = [f"lc{h}" for h in range(HISTORIES)]
    order = list(names)
    random.Random(7).shuffle(order)
    split = {n: ("dev" if i < HISTORIES // 2 else "test") for i, n in enumerate(order)}
    out: dict[str, Any] = {"histories": [], "questions": []}
    for hname in names:
        sessions: list[dict[str, Any]] = []
        day = START + dt.timedelta(days=rng.randint(0, 20))
        topics = list(TOPICS)
        plan: list[list[tuple[str, Any]]] = [[] for _ in range(SESSIONS)]
        # one fact per topic session, facts of several kinds spread over the year
        for i in range(SESSIONS):
            plan[i].append(("topic", topics[i % len(topics)]))
        events = rng.sample(EVENTS, 6)
        ev_at = sorted(rng.sample(range(SESSIONS), 6))
        for ev, at in zip(events, ev_at, strict=True):
            plan[at].append(("event", ev))
        spread_at: list[tuple[Any, list[int]]] = []
        for kind in rng.sample(SPREAD, 2):
            picks = rng.sample(kind[2], 3)
            sp_at = sorted(rng.sample(range(SESSIONS), 3))
            for x, at in zip(picks, sp_at, strict=True):
                plan[at].append(("spread", (kind, x)))
            spread_at.append((kind, sp_at))
        update_at: list[tuple[Any, int]] = []
        for upd in rng.sample(UPDATES, 2):
            old, new = rng.sample(upd[3], 2)
            a = rng.randrange(0, SESSIONS // 2)
            b = rng.randrange(a + 4, SESSIONS)
            plan[a].append(("ustate", (upd, old, new)))
            plan[b].append(("uupdate", (upd, old, new)))
            update_at.append((upd, b))
        used: set[tuple[str, str]] = set()
        for i, items in enumerate(plan):
            day += dt.timedelta(days=rng.randint(5, 14))
            sid = f"{hname}-s{i:02d}"
            msgs: list[dict[str, Any]] = []

            def say(role: str, text: str, key: str | None = None, into: list[Any] = msgs) -> None:
                into.append({"role": role, "content": text, "key": key})

            for what, payload in items:
                if what == "topic":
                    topic = TOPICS[payload]
                    left = [f for f in topic["facts"] if (payload, f[1]) not in used]
                    tip, tip_q, tip_values = TIPS[payload]
                    say("user", topic["ask"])
                    if (payload, tip_q) not in used:
                        used.add((payload, tip_q))
                        extra = tip.format(x=rng.choice(tip_values))
                        say("assistant", _reply(topic, rng, extra=extra), key=f"{sid}:reply")
                        out["questions"].append(
                            {
                                "history": hname,
                                "category": "assistant",
                                "question": tip_q,
                                "evidence": [f"{sid}:reply"],
                            }
                        )
                    else:
                        say("assistant", _reply(topic, rng))
                    if left:
                        fact, question, slot = left[0]
                        used.add((payload, question))
                        say(
                            "user",
                            fact.format(**{slot: rng.choice(SLOTS[slot])}),
                            key=f"{sid}:fact",
                        )
                        out["questions"].append(
                            {
                                "history": hname,
                                "category": "user-fact",
                                "question": question,
                                "evidence": [f"{sid}:fact"],
                            }
                        )
                    else:
                        say("user", "Thanks. Anything else I should keep in mind?")
                    say("assistant", _reply(topic, rng))
                elif what == "event":
                    say("user", payload[0], key=f"{sid}:event")
                    say(
                        "assistant",
                        "That's wonderful news, congratulations! "
                        + _reply(TOPICS[rng.choice(topics)], rng),
                    )
                elif what == "spread":
                    (tpl, question, _), x = payload
                    say("user", tpl.format(x=x), key=f"{sid}:spread:{question}")
                    say("assistant", "Sounds great. " + _reply(TOPICS[rng.choice(topics)], rng))
                elif what in ("ustate", "uupdate"):
                    (first, later, question, _), old_v, new_v = payload
                    text = (
                        first.format(x=old_v)
                        if what == "ustate"
                        else later.format(x=old_v, y=new_v)
                    )
                    say("user", text, key=f"{sid}:{what}:{question}")
                    say("assistant", "Noted. " + _reply(TOPICS[rng.choice(topics)], rng))
            when = day
            for m in msgs:
                m["time"] = when.isoformat(timespec="minutes")
                when += dt.timedelta(minutes=rng.randint(2, 9))
            sessions.append({"id": sid, "messages": msgs})
        ev_keys = [f"{hname}-s{at:02d}:event" for at in ev_at]
        for (ev, _), key in zip(events, ev_keys[1:], strict=False):
            out["questions"].append(
                {
                    "history": hname,
                    "category": "order",
                    "question": f"What did I do after I {ev_phrase(ev)}?",
                    "evidence": [key],
                }
            )
        for kind, sp_at in spread_at:
            evidence = [f"{hname}-s{at:02d}:spread:{kind[1]}" for at in sp_at]
            out["questions"].append(
                {
                    "history": hname,
                    "category": "multi-session",
                    "question": kind[1],
                    "evidence": evidence,
                }
            )
        for upd, b in update_at:
            out["questions"].append(
                {
                    "history": hname,
                    "category": "update",
                    "question": upd[2],
                    "evidence": [f"{hname}-s{b:02d}:uupdate:{upd[2]}"],
                }
            )
        out["histories"].append({"id": hname, "split": split[hname], "sessions": sessions})
    for q in out["questions"]:
        q["split"] = split[q["history"]]
    return out


def ev_phrase(text: str) -> str:
    """The phrase of an event message ("ran my first half marathon")."""
    return next(p for t, p in EVENTS if t == text)


def main() -> None:
    data = build()
    DATA.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    n = len(data["questions"])
    msgs = sum(len(s["messages"]) for h in data["histories"] for s in h["sessions"])
    print(f"{n} questions, {msgs} messages -> {DATA}", file=sys.stderr)


if __name__ == "__main__":
    main()
