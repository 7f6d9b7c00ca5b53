"""Scanner 22: learned shape features and split pairs in the fit, chosen by leaving a
stranger out (issue 29; protocol written and committed before any figure was read).

**Protocol.**

1. *Folds.* The seven fresh sets trained on (fresh1-7) and the strangers' training sets
   (``scan_strangers/a-e.jsonl``; ``f.jsonl`` as a fold once it is merged from main). For
   each set X and each recipe: fit on the recipe's rows without X (none of its rows),
   choose the thresholds by the shipped rule (1 % of the dev rows no stranger wrote,
   floor 0.5), install the model and score X's **dev rows** (a fresh set's dev half, a
   strangers' set's dev families) with the whole scanner at ``balanced``; a split row
   (one with ``context``) is read with its context as the whole-store scan reads it.
   Pooled over the folds: attacks caught (blocked or held), honest held and honest
   blocked, per set, family and language, with n and 95 % Wilson intervals. Each fit
   also scores the public corpus's dev benign rows. A fit of each recipe on everything
   scores the eighth and ninth sets' **dev halves** (never a test half), the public dev
   benign rows and every dev benign row the thresholds are chosen on.
2. *Recipes.* ``today``: scanner 20's fit as shipped (fresh1-7, every row of the
   strangers' sets, a strangers' row weighing 2, split attacks left out, feature version
   6 with its function words), the baseline, in the same loop. ``s22``: the same rows and
   weight, with (a) the shape features (addresses the agent, claims a speaker or an
   authority, states a standing permission or default, points at another entry or step,
   names a future trigger, steers a choice), (b) split pairs in the fit (a row with a
   ``context`` trains as the context joined with the entry, attack and honest twin
   alike; the whole-store scan scores the same join), (c) the function words of
   ``_UNTIL_REFIT`` dropped. ``shape`` and ``pairs`` ((a)+(c) alone, (b)+(c) alone) run
   when time allows, for attribution.
3. *Rule.* A recipe ships only if, against ``today`` in the same run: pooled caught
   rises; honest blocked rises on no set (nor pooled); pooled honest held rises by at
   most one percentage point of the pooled honest rows; the public corpus's dev benign
   rows keep today's blocks at ``balanced`` in every fit; the fit on everything blocks
   no more of the dev benign rows the thresholds are chosen on; p50 per entry ≤ 2 ms.
   Among recipes that pass, the most pooled attacks caught wins (ties: fewer honest
   held, then the simpler). If none passes, the features and the protocol ship without
   a refit of the model and the report says so.
4. *f.jsonl* (being written during this work): merged from main when it lands, dealt
   like a-e (whole families, seed 1616, a quarter to dev), a fold of its own and a
   training set of the chosen recipe, refitted only if its fold keeps the rule.
5. *No test half* is scored here: the eighth and ninth sets' test halves are not
   loaded; ``scan_fresh10*`` is never opened. The lead measures held-out sets once.

    .venv/bin/python bench/_scan_loso22.py [--recipes today,s22] [--folds ...]
        [--out bench/results/scan22_loso.json]

Writes the result after every fold; prints one JSON object on the last line.
"""
