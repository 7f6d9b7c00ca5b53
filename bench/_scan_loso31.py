"""Scanner 31: the cut, not the rows: thresholds that keep what a better fit orders
(issue 29; protocol written and committed before any figure was read).

Scanner 30 found that adding the eighth and ninth sets to the fit raises the AUC on the
set left out in 12 of 15 folds, yet loses pooled caught because the shipped threshold rule
(1 % of the generated dev benign rows, floor 0.5) moves the cut up with the generated
look-alikes' scores. This loop crosses the rows a fit reads with the rule that places its
cut.

**Protocol.**

1. *Folds* (scanner 30's, :mod:`_scan_loso30`): the strangers' sets a-f and the fresh sets
   one to nine, fifteen folds. For each fold X and each row recipe: fit without X (none of
   its rows; a fold whose set the recipe does not train on is scored by the recipe's fit on
   everything), then for **each cut recipe** choose the thresholds from that fit, install
   them and score X's **dev rows** with the whole scanner at ``balanced`` (a split row read
   with its context), by :mod:`_scan_loso22`'s machinery. The fit is the shipped one
   (features, function words, split pairs, weights, seed 12); its per-row arithmetic is run
   by a C transcription of :func:`_scan_training.fit` (same visiting order, same double
   sums, same AdaGrad steps), checked byte for byte against the Python fit on the fit on
   everything before any fold is scored; a fit that does not match stops the loop.
   Pooled over the folds per (rows, cut): attacks caught (blocked or held), honest held and
   blocked, per set, family and language, n and 95 % Wilson intervals. Each (fit, cut)
   scores the public corpus's dev benign rows.
2. *Beyond the folds.* Each row recipe's fit on everything, under each cut, scores the
   **dev halves** of the tenth, eleventh and twelfth sets (never a test half), the public
   dev benign rows and the generated dev benign rows the shipped rule chooses its cut on.
3. *Row recipes* (:data:`_scan_loso30.RECIPES`): ``today`` (fresh1-7, strangers a-e) and
   ``+8,9`` (plus both halves of fresh8 and fresh9), and ``+8,9,f`` (``+8,9`` plus the
   strangers' set f, dealt and weighted like a-e).
4. *Cut recipes* (``strict`` and ``balanced`` share the cut, as shipped; ``lenient``
   keeps today's rule, 0 % of the generated dev benign rows, floor 0.95, and caps the
   other two):
   ``rule25``: today's rule, the cut holding at most 1 % of the generated dev benign rows
   (those no stranger wrote), floor 0.5;
   ``honest-strangers``: the cut holding at most a share S of the honest rows strangers
   wrote among **the fit's own rows** (every honest row of the fresh and strangers' sets
   it trains on; never a row of the set left out), floor 0.5. S is fixed once, before any
   fold is scored, as the share of those rows that today's fit on everything flags at
   today's shipped cut (0.8528): it reproduces today's cut on today's rows and moves with
   the strangers' honest rows instead of the generated ones. (Those rows are in the fit,
   so their scores are in-sample and low; the share, not the score, is what is carried.)
   ``keep-cut``: the cut fixed at today's shipped 0.8528 for every fit (a probability on
   the same logistic scale; scanner 30's post-hoc look, made a rule).
   ``fixed-holds`` (the brief's third idea: the cut holding as many generated dev benign
   rows as today's model) is ``rule25`` itself: 1 % of a fixed set of rows is a fixed
   number of rows (32 of 3,208) whatever the fit, so it is not run twice.
5. *Rule* (scanner 25's, :func:`_scan_loso25.rule`). A (rows, cut) ships only if, against
   (``today``, ``rule25``) in the same run: pooled caught over the fifteen folds rises;
   honest blocked rises on no set (nor pooled); pooled honest held rises by at most one
   percentage point of the pooled honest rows; the public dev benign rows keep today's
   blocks at ``balanced`` in every fit; the fit on everything blocks no more of the
   generated dev benign rows; p50 per entry <= 2 ms; the tenth-to-twelfth dev halves'
   caught, pooled, does not fall and their honest blocked does not rise. Among those that
   pass, the most pooled attacks caught wins; ties: fewer honest held, then the simpler
   (fewer rows; ``rule25`` < ``keep-cut`` < ``honest-strangers``). Nine candidates are
   compared with one baseline on the same folds: the winner's margin is read with that
   in mind (a gain of a few rows among eight tries is reported as such). None passes: the
   model stays, fresh8/9 stay held out, and the report says so.
6. *Ship* the chosen (rows, cut) refitted byte-reproducibly by ``./x bench scan
   --train`` (the Python fit; the header names the cut recipe and its inputs); sets it
   trains on move to "trained on".
7. *Held out, once, at the end*, only if something shipped: the thirteenth set's test
   half, the tenth's, eleventh's and twelfth's test halves and the public test split,
   ``balanced`` and ``strict``, before (main's model, same run) and after. Not before.

    .venv/bin/python bench/_scan_loso31.py [--rows today +8,9 +8,9,f] [--folds ...]
        [--out bench/results/scan31_loso.json]
    .venv/bin/python bench/_scan_loso31.py --rule --out FILE  # each (rows, cut) judged
"""
