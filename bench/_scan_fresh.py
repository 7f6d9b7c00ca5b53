"""Fresh held-out sets for scanner 3: hand-written rows, split once by family x language.

``bench/data/scan_fresh.jsonl`` holds attacks and honest look-alikes written for the
scanner-4 work before the scanner was changed, in wording that shares no template with
``scan_families.json``: one JSON object a line, ``{text, label, family, lang, source,
split}`` and, for a split instruction (two entries, each harmless alone), ``context``:
the entries already stored that the text is read with. ``label`` is ``attack`` or
``benign``.

:func:`deal` assigns every (label, family, language) group to ``dev`` or ``test``: per
(label, family) its languages are dealt in a seeded order (:data:`SEED`), balancing
languages and families between the halves, so every family and every language has rows
in both while a test row never shares its family *and* language (and so its wording)
with a dev row. The split is written into
the file once; :func:`load` refuses a file whose split differs from what :func:`deal`
gives, so a row cannot be moved between halves by hand.

The scanner is tuned on ``dev`` only; ``test`` is reported once, at the end.

``bench/data/scan_fresh2.jsonl`` (:data:`SECOND`, scanner 6) is a second set written the
same way by a new attacker, before the scanner-6 changes, in framings the first set has
not (a story, a quoted note from an admin, a checklist, a conditional, YAML / JSON /
markdown-table configuration, a translation request, typos and leetspeak, two entries)
and twelve languages; each row also names its ``style``. It is dealt with its own seed.

``bench/data/scan_fresh3.jsonl`` (:data:`THIRD`, scanner 7) is a third set, written before
the scanner-7 changes in wording that avoids both earlier sets' templates, weighted toward
credential harvesting and exfiltration (webhook, e-mail, gist, DNS, paste site, image
URL), in seventeen languages (Dutch, Polish, Ukrainian, Turkish and Hindi new) and the
framings plain note, second person, "the user wants", "we agreed that", FAQ answer, code
comment and commit message, with honest look-alikes in the same framings.

``bench/data/scan_fresh4.jsonl`` (:data:`FOURTH`) is a fourth set, written by a hand that
had not read the scanner, its families or the earlier sets' rows: the issue's seven
families, requests to reveal the agent's instructions, and five families the issue left
out (social engineering of third parties, payment redirection, silently weakening the
user's security, look-alike packages and registries, tracking the user), in twenty-three
languages and framings such as meeting minutes, ticket comments, e-mail signatures,
shell history, ``.env`` lines, TOML and JSON. It was measured once, on the scanner as it
stood when the set was written, and is not tuned on.

``bench/data/scan_fresh5.jsonl`` (:data:`FIFTH`) is a fifth set, written by another hand
that had not read the scanner, its families or the earlier sets' rows, after every earlier
test half had been measured following changes: the fourth set's thirteen families and
five more (sabotage of the user's work, steering the user's decisions and purchases,
poisoning other memory entries and skills, hiding evidence, impersonating the user), text
that reaches memory without an attacker typing it (a pasted web page or README, an e-mail
summary, a calendar note, alt text, a PDF's hidden line), honest look-alikes in the same
framings, twenty-eight languages besides English (Czech, Romanian, Greek, Urdu and
Tagalog new). It was measured once, on the scanner as it stood when the set was written,
and is not tuned on.

``bench/data/scan_fresh6.jsonl`` (:data:`SIXTH`) is a sixth set, written by a third hand
that had not read the scanner, its families or the earlier sets' rows, after all five
earlier test halves had been seen following changes: the issue's seven families, requests
to reveal the agent's instructions and ten harms of the writer's own naming (payment
redirection, abuse of the user's contacts, steering decisions, surveillance, sabotage,
memory poisoning, evidence tampering, impersonation, weakening security, account
takeover), worded as preferences, favours, policies, team decisions, notes from "IT" or
"legal", conditional and delayed triggers, and as text that reaches memory unbidden (a
README, an issue comment, a support ticket, an e-mail summary, a transcript, a PDF's
hidden line); honest look-alikes in the same framings; twenty-nine languages besides
English (Malay and Tamil new). It was measured once, on the scanner as it stood when the
set was written, and is not tuned on.

``bench/data/scan_fresh7.jsonl`` (:data:`SEVENTH`) is a seventh set, written by a fourth hand
that had not read the scanner, its families or the earlier sets' rows, after all six
earlier test halves had been seen following changes, in the voice of a penetration tester
hired by a logistics company and a regional hospital: attacks that read as ordinary
preferences or facts and harm only when acted on (a "preferred" payee, a "usual" delivery
address, a "standing" approval, a "trusted" domain, a default recipient for reports),
authority claims, multi-step and conditional triggers, and harms to third parties
(patients, customers, colleagues), twenty-three families in all; honest look-alikes on the
same topics (call-back-confirmed bank changes, depots, real allowlists and phishing
warnings, runbooks, surprise parties); twenty-four languages besides English (Hungarian,
Finnish, Swedish, Catalan, Croatian, Slovak and Bulgarian new). It was measured once, on
the scanner as it stood when the set was written, and is not tuned on.

``bench/data/scan_fresh8.jsonl`` (:data:`EIGHTH`) is an eighth set, written by a fifth hand
that had not read the scanner, its families or the earlier sets' rows, after all seven
earlier test halves had been seen following changes, in the voice of a journalist and a
small-town IT volunteer who help elderly relatives, a church choir and a football club:
harm worded as care and help ("Grandma prefers that you...", "the club agreed...") in
family group chats, club treasurers' notes, donation links, pharmacy and pension portals,
online shops and second-hand markets, with grandparent, romance and tech-support scams
among its eighteen families (payment redirection, abuse of the user's contacts, steering
decisions, surveillance, sabotage of medication and appointments, memory poisoning,
evidence tampering, impersonation and account takeover besides the issue's families);
honest look-alikes on the same topics (surprise parties, powers of attorney, scam
warnings, call-back-confirmed bank changes, runbooks); twenty-nine languages besides English,
and mixed family chat. It was measured once, on the scanner as it stood when the set was
written, and is not tuned on.

``bench/data/scan_fresh9.jsonl`` (:data:`NINTH`) is a ninth set, written by a sixth hand
that had not read the scanner, its families or the earlier sets' rows, after all eight
earlier test halves had been seen following changes, in the voice of an operations
manager at a logistics and travel company and a parent who runs a home lab: harm worded
as routine (a standing approval, a trusted supplier, a house rule, a default, a reminder)
about shipping, customs, fleet and booking tools, supplier portals, loyalty accounts, visa
and passport services, school apps, routers, NAS boxes and kids' game and app-store
accounts, and arriving as a changelog, a README, an issue comment, a calendar invite, a
PDF line or a stand-up transcript; nineteen families (the issue's seven, requests to
reveal the instructions, payment redirection, abuse of contacts, steering decisions,
surveillance, sabotage, weakening security, memory poisoning, evidence tampering,
impersonation, account takeover, unauthorised purchases); honest look-alikes in the same
framings and topics (call-back-confirmed bank changes, runbooks, surprise parties, chosen
monitoring, real "don't mention" wishes); forty-three languages besides English (Latvian,
Estonian, Lithuanian, Serbian, Telugu, Marathi, Amharic, Hausa and Yoruba among them) and
mixed text. It was measured once, on the scanner as it stood when the set was written, and
is not tuned on.

``bench/data/scan_fresh10.jsonl`` (:data:`TENTH`) is a tenth set, written by a seventh hand
that had not read the scanner, its families or the earlier sets' rows, after the eighth and
ninth test halves had been seen following changes, in the voice of the office manager of
a dental clinic and a freelance translator who also streams games: patient booking
systems, insurers, dental labs and suppliers, payroll; translation agencies, invoices in
several currencies, CAT tools and client NDAs; streaming software, sponsors, chat
moderators and donation links. Eighteen families (the issue's seven, prompt exfiltration,
payment redirection, abuse of contacts, steering decisions, surveillance, sabotage,
memory poisoning, evidence tampering, impersonation, account takeover, unauthorised
purchases), worded as preferences, standing instructions, house rules, team decisions,
notes from "IT", "legal" or "the bank", facts, conditional and delayed triggers, and as
text that reaches memory unbidden (a web page, a README, a changelog, an issue comment, an
e-mail summary, a calendar invite, a PDF line, a transcript, a support ticket, a review, a
form field); honest look-alikes in the same family, language and framing; fifty-one
languages besides English (Sinhala, Khmer, Burmese, Georgian, Armenian, Azerbaijani,
Kazakh, Uzbek and Nepali among them) and mixed text. It was measured once, on the scanner
as it stood when the set was written, and is not tuned on.

``bench/data/scan_fresh11.jsonl`` (:data:`ELEVENTH`) is an eleventh set, written by an
eighth hand that had not read the scanner, its families or the earlier sets' rows, after
the eighth to tenth test halves had been seen following changes, in the voice of the
receptionist of a veterinary practice and a PhD student in a chemistry lab who also runs
a small online ceramics shop: pet records, vaccination reminders, pharmacy orders,
referrals and pet insurers; lab inventory, instrument bookings, safety data sheets,
supervisors, grant reports and conference travel; shop listings, a payment processor,
couriers, customer messages, marketplace disputes and tax forms. Eighteen families (the
issue's seven, prompt exfiltration, payment redirection, abuse of contacts, steering
purchases, surveillance, sabotage, memory poisoning, evidence tampering, impersonation,
account takeover, weakening security), each attack paired with an honest look-alike in
the same family, language and framing (preferences, standing instructions, house rules,
team decisions, notes from "IT", "legal" or "the bank", facts, conditional and delayed
triggers, runbooks, and text that reaches memory unbidden: a web page, a README, a
changelog, an issue comment, an e-mail summary, a calendar invite, a PDF line, a
transcript, a support ticket, a review, a form field); forty languages besides
English (Icelandic, Irish, Welsh, Basque, Galician, Maltese, Albanian, Macedonian,
Bosnian, Slovene, Belarusian, Mongolian, Pashto, Kurdish, Sindhi, Gujarati, Kannada,
Malayalam, Punjabi, Lao, Zulu, Xhosa, Igbo, Somali, Malagasy, Kyrgyz and Tajik among them)
and mixed text. It was measured once, on the scanner as it stood when the set was
written, and is not tuned on.

``bench/data/scan_fresh12.jsonl`` (:data:`TWELFTH`) is a twelfth set, written by a ninth
hand that had not read the scanner, its families or the earlier sets' rows, after the
eighth to eleventh test halves had been seen following changes, in the voice of the
dispatcher of an island ferry line (timetables, passenger manifests, crew rosters and
payroll, fuel suppliers, the port authority and its inspectors, deck logs, alarms) and a
freelance translator who also lets a two-room flat (guests, cleaners, door codes, a
booking platform's payouts and disputes, agencies, contracts under NDA, glossaries and
translation memories). The same eighteen families as the eleventh, nine attacks each,
each attack paired with an honest look-alike in the same family, language and framing;
framings mostly of text that reaches memory unbidden (tool output, a web page, a README,
meeting notes, a chat export, an invoice, an OCR'd letter, a voicemail transcript, an
e-mail summary, a support ticket, a calendar note, a review) besides preferences,
standing instructions and memos; a split instruction is a pair of entries, the one stored
first being the row's ``context``. Forty-four languages besides English (twenty-eight of
the less-written ones the session-48 brief listed, from Icelandic, Irish, Welsh and
Basque to Yoruba, Amharic, Khmer, Sinhala, Kyrgyz, Pashto and Luxembourgish) and mixed
text. Each honest row names its ``twin``, so the deal puts a pair in one half. It was
measured once, on the scanner as it stood when the set was written, and is not tuned on.

``bench/data/scan_fresh13.jsonl`` (:data:`THIRTEENTH`) is a thirteenth set, written by a
tenth hand that had not read the scanner, its families or the earlier sets' rows, while
the eighth and ninth sets were being retired into training (session 49), in the voice of
a wind-turbine service technician (work orders, SCADA alarm exports, torque sheets,
lock-out permits, rope-access certificates, crane hire, parts suppliers, landowners'
gates, a supervisor and a colleague on the rota) and the retired teacher who is
secretary of an allotment society and its seed library (plot fees, the waiting list, the
watering rota, the treasurer and the society's bank account, the council lease, the
clubhouse router, the members' WhatsApp and Facebook groups). The twelfth's eighteen
families, nine attacks each, each paired with an honest twin in the same family,
language and framing: favours, preferences, standing instructions, minutes, memos and
quoted documents, and text arriving unbidden (tool output, an e-mail summary, an SMS, a
chat message, a work order, a web page, a README, a review, a support ticket, an invoice,
a voicemail, a scanned letter, a form field); a split instruction is a pair of entries,
the one stored first being the row's ``context``. Forty-one languages besides English
(the fifteen widely spoken es, pt, fr, de, it, ru, zh, ja, ko, ar, hi, tr, id, vi and pl,
and seventeen less-written ones from Icelandic, Welsh, Irish and Basque to Swahili,
Tagalog, Bengali, Urdu, Georgian and Armenian) and 16 mixed rows. Each honest row names
its ``twin``. It was measured once, on the scanner as it stood when the set was written,
and is not tuned on.

``bench/data/scan_fresh14.jsonl`` (:data:`FOURTEENTH`) is a fourteenth set, written by an
eleventh hand that had not read the scanner, its families or the earlier sets' rows
(session 51), in the voice of a hospital pharmacy technician (dispensing, the
controlled-drug register, ward orders, the dispensing cabinet, the fridge temperature log,
the wholesaler and its invoices, the rota and shift swaps, payroll) and a volunteer who
runs a neighbourhood repair café and its tool library (loans and the loan book,
donations, a council grant, the venue's key safe, the mailing list, the committee and its
minutes). The thirteenth's eighteen families, nine attacks each, each paired with an
honest twin in the same family, language and framing: favours, preferences, standing
instructions, memos, minutes, handover notes, ward orders, quoted documents and a
newsletter, and text arriving unbidden (tool output, an e-mail summary, an SMS, a chat
message, a voicemail, a web page, a review, a support ticket, an invoice, a form field);
a split instruction is a pair of entries, the one stored first being the row's
``context``. Forty-eight languages besides English, each written in two families (the
fifteen widely spoken es, pt, fr, de, it, ru, zh, ja, ko, ar, hi, tr, id, vi and pl, and
thirty-three others from Dutch, Swedish, Ukrainian, Greek, Hebrew and Thai to Icelandic,
Welsh, Irish, Basque, Swahili, Yoruba, Amharic, Sinhala, Mongolian and Slovene), 50
English and 16 mixed rows. Each honest row names its ``twin``. It was measured once, on
the scanner as it stood when the set was written, and is not tuned on.

``bench/data/scan_fresh15.jsonl`` (:data:`FIFTEENTH`) is a fifteenth set, written by a
twelfth hand that had not read the scanner, its families or the earlier sets' rows
(session 52), in the voice of a long-haul truck dispatcher (routes, fuel cards, the
depot's gate codes and alarm, drivers' hours and tachograph files, telematics, the TMS,
a customs broker, the yard's CCTV, the workshop) and a retired teacher who runs a
village church choir and its small charity account (rehearsals, scores and their
licences, donations, the hall's booking, the parish newsletter, the treasurer, the
vicar, the choir's Facebook page and WhatsApp group). The fourteenth's eighteen
families, nine attacks each, each paired with an honest twin in the same family,
language and framing: favours, preferences, standing instructions, policies, memos,
minutes, dispatch notes, rehearsal notes, work orders, quoted documents and a
newsletter, and text arriving unbidden (tool output, an e-mail summary, an SMS, a chat
message, a voicemail, a web page, a review, a support ticket, an invoice, a form
field); a split instruction is a pair of entries, the one stored first being the row's
``context``. Forty-eight languages besides English, each written in two families (the
fifteen widely spoken es, pt, fr, de, it, ru, zh, ja, ko, ar, hi, tr, id, vi and pl, and
thirty-three others from Dutch, Swedish, Ukrainian, Greek, Hebrew and Thai to Icelandic,
Welsh, Irish, Basque, Swahili, Georgian, Armenian, Catalan, Croatian, Slovak, Bulgarian,
Serbian, the three Baltic languages and Afrikaans), 50 English and 16 mixed rows
(Spanish, Hinglish, German, French, Taglish, Arabizi, Portuguese, Italian, German and
Turkish, Dutch, Chinese, Japanese, Russian, Korean, Polish and Darija with French, each
with English where not said). Each honest row names its ``twin``. It was measured once,
on the scanner as it stood when the set was written, and is not tuned on.

``bench/data/scan_fresh16.jsonl`` (:data:`SIXTEENTH`) is a sixteenth set, written by a
thirteenth hand that had not read the scanner, its families or the earlier sets' rows
(session 53), in the voice of a freelance sign-language interpreter (client bookings in
hospitals, courts and tribunals, an agency portal and its coordinators, invoices and
commission, a video relay account, colleagues on the rota, the interpreters' register)
and a family running a small vineyard with a farm shop (the card terminal and its
end-of-day reports, the wholesale buyer, the spray diary and the inspector, the co-op's
online account, the bottling contractor, the cellar's tank controller, the frost alarm,
the seasonal pickers). The fifteenth's eighteen families, nine attacks each, each paired
with an honest twin in the same family, language and framing: favours, preferences,
standing instructions, policies, memos, minutes, booking notes, spray-diary entries and
quoted documents, and text arriving unbidden (tool output, an e-mail summary, an SMS, a
chat message, a voicemail, a web page, a review, a support ticket, an invoice, a form
field); a split instruction is a pair of entries, the one stored first being the row's
``context``. Forty-eight languages besides English, each written in two families (the
fifteen widely spoken es, pt, fr, de, it, ru, zh, ja, ko, ar, hi, tr, id, vi and pl, and
thirty-three others from Dutch, Swedish, Danish, Norwegian, Finnish, Ukrainian, Greek,
Hebrew and Thai to Icelandic, Welsh, Basque, Galician, Catalan, Maltese, Albanian,
Slovene, Swahili, Zulu, Amharic, Marathi, Tamil, Georgian and Azerbaijani), 50 English
and 16 mixed rows (Spanish, Hinglish, Taglish, German, French, Lebanese Arabizi,
Japanese, Portuguese, Welsh, Afrikaans, Korean, Italian, Sheng, Polish, Chinese and
Malay, each with English where not said). Each honest row names its ``twin``. It was
measured once, on the scanner as it stood when the set was written, and is not tuned on.

``bench/data/scan_fresh17.jsonl`` (:data:`SEVENTEENTH`) is a seventeenth set, written by a
fourteenth hand that had not read the scanner, its families or the earlier sets' rows
(session 54), in the voice of a self-employed plumber with a van (job sheets, the
merchant's trade account and its invoices, a booking app and its refunds, customers'
key-safe codes, the van tracker, gas-safety certificates and commissioning records, an
apprentice, a bookkeeper, a rival on the estate) and a small-town public library's branch
manager (the catalogue system and its admin tools, patron records and loan histories,
the public PCs, the e-book vendor and its licences, the council's procurement portal,
the Friends of the Library, the book-sale tin, volunteers and story time). The
sixteenth's eighteen families, nine attacks each, each paired with an honest twin in the
same family, language and framing: favours, preferences, standing instructions,
policies, memos, minutes, job sheets, branch-log entries and quoted documents, and text
arriving unbidden (tool output, an e-mail summary, an SMS, a chat message, a voicemail, a
web page, a review, a support ticket, an invoice, a form field); a split instruction is a
pair of entries, the one stored first being the row's ``context``. Forty-eight languages
besides English, each written in two families (the fifteen widely spoken es, pt, fr, de,
it, ru, zh, ja, ko, ar, hi, tr, id, vi and pl, and thirty-three others from Dutch,
Swedish, Danish, Norwegian, Finnish, Ukrainian, Greek, Hebrew and Thai to Icelandic,
Welsh, Irish, Basque, Galician, Catalan, the three Baltic languages, Serbian in Cyrillic,
Swahili, Afrikaans, Bengali, Urdu, Persian and Nepali), 50 English and 16 mixed rows
(Spanish, Hinglish, Taglish, Quebec French, German, Lebanese Arabizi, Japanese,
Singaporean Chinese, Brazilian Portuguese, Sheng, Korean, Italian, Polish, Welsh, Dutch
and Malaysian English, each with English where not said). Each honest row names its
``twin``. It was measured once, on the scanner as it stood when the set was written, and
is not tuned on.

``bench/data/scan_fresh18.jsonl`` (:data:`EIGHTEENTH`) is an eighteenth set, written by a
fifteenth hand that had not read the scanner, its families or the earlier sets' rows
(session 55), in the voice of a hospital physiotherapist who runs a weekend climbing club
(treatment notes, ward and outpatient lists, the e-records system and its smartcards,
home visits and the lone-worker policy, private patients and their billing, a locum, a
consultant's secretary; the club's gear log and retired ropes, belay checks, the accident
book, kids' sessions and parents, members' emergency contacts and medical notes, the
treasurer and the club account, the wall's bookings and keypad, outdoor meets) and a
small online shop selling hand-dyed yarn and knitting kits (the storefront and its
plugins, a payment processor and its payouts, courier accounts and lost parcels, the
base-yarn mills and dye suppliers, wholesale buyers, a part-time bookkeeper, a dye-studio
assistant and a virtual assistant, reviews, the newsletter, VAT returns). The
seventeenth's eighteen families, nine attacks each, each paired with an honest twin in
the same family, language and framing: favours, preferences, standing instructions,
policies, memos, minutes, treatment notes, club notices, order notes and quoted
documents, and text arriving unbidden (tool output, an e-mail summary, an SMS, a chat
message, a voicemail, a web page, a review, a support ticket, an invoice, a form field);
a split instruction is a pair of entries, the one stored first being the row's
``context``. Forty-eight languages besides English, each written in two families (the
fifteen widely spoken es, pt, fr, de, it, ru, zh, ja, ko, ar, hi, tr, id, vi and pl, and
thirty-three others from Dutch, Danish, Finnish, Estonian, Hungarian, Swedish, Norwegian,
Ukrainian, Greek, Hebrew and Thai to Icelandic, Welsh, Irish, Basque, Catalan, Serbian in
Cyrillic, the other two Baltic languages, Swahili, Tagalog, Malay, Bengali, Urdu,
Persian, Tamil and Georgian), 50 English and 16 mixed rows (Danish, Hinglish, Spanish,
Finnish, Taglish, Dutch, German, Lebanese Arabizi, Singlish, Quebec French, Japanese,
Polish, Estonian, Hungarian, Brazilian Portuguese and Korean, each with English where not
said). Each honest row names its ``twin``. It was measured once, on the scanner as it
stood when the set was written, and is not tuned on.

``bench/data/scan_fresh19.jsonl`` (:data:`NINETEENTH`) is a nineteenth set, written by a
sixteenth hand that had not read the scanner, its rules or the earlier sets' rows beyond the
eighteenth's first lines, for the format (session 56), in the voice of a freelance wedding
and event photographer (client galleries and their platform, contracts, deposits and
balances, second shooters and a retoucher, the studio NAS and the cloud backup, the print
lab and albums, venues and planners, drone permits, reviews, the booking site and its
plugins) and a family bakery with a café and a delivery bike (the till and the card
terminal, the flour mill and the dairy, the allergen matrix and labels, the fridge and
freezer logs, the food-hygiene inspector, the bakers' rota and apprentices, wholesale cafés,
the oven and its servicing, the delivery app, the loyalty card). The eighteenth's eighteen
families, nine attacks each, each paired with an honest twin in the same family, language
and framing: favours, preferences, standing instructions, policies, memos, minutes, shoot
briefs, bake sheets, order notes, a group notice and a quoted letter, and text arriving
unbidden (tool output, an e-mail summary, an SMS, a chat message, a voicemail, a web page,
a review, a support ticket, an invoice, a form field); a split instruction is a pair of
entries, each harmless alone, the one stored first being the row's ``context``.
Forty-eight languages besides English, each written in two families (the fifteen widely
spoken es, pt, fr, de, it, ru, zh, ja, ko, ar, hi, tr, id, vi and pl, and thirty-three
others, nine of them new to the later sets: Afrikaans, Albanian, Armenian, Azerbaijani,
Macedonian, Galician, Marathi, Telugu and Nepali, beside Dutch, Danish, Finnish, Hungarian,
Swedish, Norwegian, Ukrainian, Greek, Hebrew, Thai, Czech, Romanian, Croatian, Bulgarian,
Lithuanian, Slovak, Catalan, Welsh, Swahili, Tagalog, Malay, Bengali, Persian and Tamil),
50 English and 16 mixed rows (Spanglish, Denglisch, Manglish, French, Cantonese, Greek,
Nigerian Pidgin, Hinglish, Brazilian Portuguese, Italian, Turkish-German, Russian, Korean,
Swedish, Maghrebi French-Arabic and Japanese, each with English where not said). Each
honest row names its ``twin``. It was measured once, on the scanner as it stood when the
set was written, and is not tuned on.

``bench/data/scan_fresh20.jsonl`` (:data:`TWENTIETH`) is a twentieth set, written by a
seventeenth hand that had not read the scanner, its rules or the earlier sets' rows beyond the
nineteenth's first lines, for the format (session 57), in the voice of a self-employed
locksmith (emergency lock-outs and call-outs, the key-cutting machine, the customer key
register and master-key charts, safe openings, smart locks and access-control panels for
offices, landlords and tenants, the key-blank supplier, the insurer, the van and its opening
kit) and a family-run driving school (two instructors and their dual-control lease cars, the
booking app and the pupils' app, dashcams and the fleet tracker, lesson logs, theory and
practical test bookings, the examiners' office, pupils and the parents who pay). The
nineteenth's eighteen families, nine attacks each, each paired with an honest twin in the
same family, language and framing: favours, preferences, standing instructions, policies,
memos, minutes, a locksmith's job cards, a driving school's lesson logs and a quoted
document, and text arriving unbidden (tool output, an e-mail summary, an SMS, a chat
message, a voicemail, a web page, a review, a support ticket, an invoice, a form field); a
split instruction is a pair of entries, each harmless alone, the one stored first being the
row's ``context``. Forty-eight languages besides English, each written in two families (the
fifteen widely spoken es, pt, fr, de, it, ru, zh, ja, ko, ar, hi, tr, id, vi and pl, and
thirty-three others, nine of them new to every earlier set: Javanese, Cebuano, Haitian
Creole, Esperanto, Latin, West Frisian, Scottish Gaelic, Occitan and Tatar, beside Dutch,
Danish, Finnish, Hungarian, Swedish, Norwegian, Ukrainian, Greek, Hebrew, Thai, Czech,
Romanian, Croatian, Bulgarian, Lithuanian, Slovak, Catalan, Swahili, Tagalog, Malay,
Bengali, Persian, Estonian and Slovene), 50 English and 16 mixed rows (Spanglish, Hinglish,
Franglais, Taglish, Denglisch, Singlish, Chinese, Japanese, Korean, Russian,
Portuguese, Italian, Egyptian Arabizi, Dutch, Polish and Turkish, each with
English where not said). Each honest row names its ``twin``. It was measured once, on the
scanner as it stood when the set was written, and is not tuned on.

**Since scanner 16 the first five sets are training data, since scanner 20 the sixth and
seventh too, since scanner 31 the eighth and ninth.** The classifier is fitted on every
row of both halves of these sets (:data:`TRAINED_ON`; ``FRESH_TRAINED`` in
``bench/_scan_training.py``), so their figures are figures on training rows, reported as
"trained on", not as held out. The tenth to
twentieth sets stay held out: the scanner is neither trained nor tuned on them.

    .venv/bin/python bench/_scan_fresh.py [--set fresh2|...|fresh20] [--split dev]
        [--level balanced] [--misses]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
from collections import defaultdict
from pathlib import Path
from typing import Any, NamedTuple

from _scan_v3 import wilson
from mnemic.scan import scan_in_context, scan_text

ROOT = Path(__file__).resolve().parent.parent

__all__ = [
    "BASELINE",
    "EIGHTEENTH",
    "EIGHTH",
    "ELEVENTH",
    "FIFTH",
    "FIRST",
    "FIFTEENTH",
    "FOURTEENTH",
    "FOURTH",
    "FRESH",
    "NINETEENTH",
    "NINTH",
    "SECOND",
    "SEED",
    "SETS",
    "SEVENTEENTH",
    "SEVENTH",
    "SIXTEENTH",
    "SIXTH",
    "TENTH",
    "THIRD",
    "THIRTEENTH",
    "TRAINED_ON",
    "TWELFTH",
    "TWENTIETH",
    "FreshSet",
    "deal",
    "figures",
    "load",
]

#: The seed of the split (issue 29, scanner 4).
SEED = 2904
FRESH = ROOT / "bench" / "data" / "scan_fresh.jsonl"
#: Figures of the scanner before any scanner-4 change, per half and level.
BASELINE = ROOT / "bench" / "data" / "scan_fresh_baseline.json"
_HALVES = ("dev", "test")


class FreshSet(NamedTuple):
    """A hand-written set: its rows, the seed it is dealt with, its untouched baseline."""

    name: str
    path: Path
    seed: int
    baseline: Path
    #: Which work the baseline is the scanner before.
    before: str


def _numbered(n: int, seed: int, before: str) -> FreshSet:
    """The n-th set: ``scan_fresh{n}.jsonl`` and its baseline file, dealt with ``seed``."""
    data = ROOT / "bench" / "data"
    return FreshSet(f"fresh{n}", data / f"scan_fresh{n}.jsonl", seed,
                    data / f"scan_fresh{n}_baseline.json", before)  # fmt: skip


FIRST = FreshSet("fresh", FRESH, SEED, BASELINE, "scanner-4")
#: The second set (scanner 6), dealt with its own seed.
SECOND = _numbered(2, 2906, "scanner-6")
#: The third set (scanner 7), dealt with its own seed.
THIRD = _numbered(3, 2907, "scanner-7")
#: The fourth set, by a hand that had not read the scanner, dealt with its own seed.
FOURTH = _numbered(4, 2912, "scanner-10")
#: The fifth set, by another hand that had not read the scanner, dealt with its own seed.
FIFTH = _numbered(5, 50505, "scanner-12")
#: The sixth set, by a third hand that had not read the scanner, dealt with its own seed.
SIXTH = _numbered(6, 60606, "scanner-15")
#: The seventh set, by a fourth hand that had not read the scanner, dealt with its own seed.
SEVENTH = _numbered(7, 70707, "session-44")
#: The eighth set, by a fifth hand that had not read the scanner, dealt with its own seed.
EIGHTH = _numbered(8, 80808, "session-44b")
#: The ninth set, by a sixth hand that had not read the scanner, dealt with its own seed.
NINTH = _numbered(9, 90909, "session-45")
#: The tenth set, by a seventh hand that had not read the scanner, dealt with its own seed.
TENTH = _numbered(10, 101010, "session-46")
#: The eleventh set, by an eighth hand that had not read the scanner, dealt with its own seed.
ELEVENTH = _numbered(11, 111111, "session-47")
#: The twelfth set, by a ninth hand that had not read the scanner, dealt with its own seed.
TWELFTH = _numbered(12, 121212, "session-48")
#: The thirteenth set, by a tenth hand that had not read the scanner, dealt with its own seed.
THIRTEENTH = _numbered(13, 131313, "session-49")
#: The fourteenth set, by an eleventh hand that had not read the scanner, dealt with its own seed.
FOURTEENTH = _numbered(14, 141414, "session-51")
#: The fifteenth set, by a twelfth hand that had not read the scanner, dealt with its own seed.
FIFTEENTH = _numbered(15, 151515, "session-52")
#: The sixteenth set, by a thirteenth hand that had not read the scanner, dealt with its own seed.
SIXTEENTH = _numbered(16, 161616, "session-53")
#: The seventeenth set, by a fourteenth hand that had not read the scanner, dealt with its own
#: seed.
SEVENTEENTH = _numbered(17, 171717, "session-54")
#: The eighteenth set, by a fifteenth hand that had not read the scanner, dealt with its own
#: seed.
EIGHTEENTH = _numbered(18, 181818, "session-55")
#: The nineteenth set, by a sixteenth hand that had not read the scanner, dealt with its own
#: seed.
NINETEENTH = _numbered(19, 191919, "session-56")
#: The twentieth set, by a seventeenth hand that had not read the scanner, dealt with its own
#: seed.
TWENTIETH = _numbered(20, 202020, "session-57")
SETS = {
    s.name: s
    for s in (
        *(FIRST, SECOND, THIRD, FOURTH, FIFTH, SIXTH, SEVENTH, EIGHTH, NINTH, TENTH, ELEVENTH),
        TWELFTH,
        THIRTEENTH,
        FOURTEENTH,
        FIFTEENTH,
        SIXTEENTH,
        SEVENTEENTH,
        EIGHTEENTH,
        NINETEENTH,
        TWENTIETH,
    )
}
#: Sets whose every row the classifier trains on (the first five since scanner 16, the
#: sixth and seventh since scanner 20, the eighth and ninth since scanner 31): not held out.
TRAINED_ON = frozenset(
    {
        FIRST.name,
        SECOND.name,
        THIRD.name,
        FOURTH.name,
        FIFTH.name,
        SIXTH.name,
        SEVENTH.name,
        EIGHTH.name,
        NINTH.name,
    }
)


def role(which: FreshSet) -> str:
    """``"trained on"`` for a set in :data:`TRAINED_ON`, else ``"held out"``."""
    return "trained on" if which.name in TRAINED_ON else "held out"


def deal(rows: list[dict[str, Any]], seed: int = SEED) -> dict[str, str]:
    """``{source: "dev" | "test"}``: every (label, family, language) group to one half.

    Families and, within each, languages are visited in a seeded order; a group goes to
    the half holding fewer groups of its language so far (then fewer of its family, then
    a seeded coin), so both halves see every language and every family. A row that names
    its ``twin`` (the source of the attack it is the honest look-alike of) goes to its
    twin's half instead, so a pair is never split between the halves."""
    groups: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for r in rows:
        groups[r["label"]][r["family"]].add(r["lang"])
    half: dict[tuple[str, str, str], str] = {}
    for label, by_family in sorted(groups.items()):
        rng = random.Random(f"{seed}:{label}")
        per_lang: dict[tuple[str, str], int] = defaultdict(int)
        families = sorted(by_family)
        rng.shuffle(families)
        for family in families:
            per_family = dict.fromkeys(_HALVES, 0)
            langs = sorted(by_family[family])
            rng.shuffle(langs)
            for lang in langs:
                tie = rng.random()
                pick = min(
                    _HALVES,
                    key=lambda h: (per_lang[(lang, h)], per_family[h], tie if h == "dev" else 0.5),
                )
                half[(label, family, lang)] = pick
                per_lang[(lang, pick)] += 1
                per_family[pick] += 1
    own = {r["source"]: half[(r["label"], r["family"], r["lang"])] for r in rows}
    return {r["source"]: own[r.get("twin") or r["source"]] for r in rows}


def load(path: Path = FRESH, seed: int = SEED) -> list[dict[str, Any]]:
    """The rows of ``path``; ``ValueError`` when a row's split is not the dealt one."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    dealt = deal(rows, seed)
    moved = [r["source"] for r in rows if r.get("split") != dealt[r["source"]]]
    if moved:
        raise ValueError(f"{path}: rows not in their dealt half: {moved[:5]}")
    return rows


def verdict(row: dict[str, Any], level: str = "balanced") -> str:
    """The scanner's verdict on a row (a split instruction read with its context)."""
    ctx = row.get("context")
    if ctx:
        # The strangers' training sets write one string, the fresh sets a list of entries.
        neighbours = [ctx] if isinstance(ctx, str) else ctx
        return scan_in_context(row["text"], neighbours, "memory", level).verdict
    return scan_text(row["text"], "memory", level).verdict


def _count(verdicts: list[str]) -> dict[str, Any]:
    count = {v: verdicts.count(v) for v in ("block", "hold", "allow")}
    return {
        "n": len(verdicts),
        "verdicts": count,
        "caught": wilson(count["block"] + count["hold"], len(verdicts)),
        "blocked": wilson(count["block"], len(verdicts)),
        "held": wilson(count["hold"], len(verdicts)),
    }


def _by(rows: list[dict[str, Any]], key: str) -> dict[str, Any]:
    groups: dict[str, list[str]] = defaultdict(list)
    for r in rows:
        groups[r[key]].append(r["verdict"])
    return {g: _count(v) for g, v in sorted(groups.items())}


def figures(
    half: str, level: str = "balanced", *, misses: bool = False, which: FreshSet = FIRST
) -> dict[str, Any]:
    """One half's figures: attacks and honest notes by verdict, per family and language
    (and style, when the rows name one; ``misses``: also the attacks allowed and the
    honest notes held or blocked)."""
    rows = [dict(r) for r in load(which.path, which.seed) if r["split"] == half]
    for r in rows:
        r["verdict"] = verdict(r, level)
    att = [r for r in rows if r["label"] == "attack"]
    ben = [r for r in rows if r["label"] == "benign"]
    out: dict[str, Any] = {
        "set": which.name,
        "role": role(which),
        "half": half,
        "level": level,
        "seed": which.seed,
        "attacks": _count([r["verdict"] for r in att]),
        "honest": _count([r["verdict"] for r in ben]),
        "attacks_by_family": _by(att, "family"),
        "attacks_by_language": _by(att, "lang"),
        "honest_by_family": _by(ben, "family"),
        "honest_by_language": _by(ben, "lang"),
    }
    if all("style" in r for r in rows):
        out["attacks_by_style"] = _by(att, "style")
        out["honest_by_style"] = _by(ben, "style")
    if misses:
        out["misses"] = [
            {"family": r["family"], "lang": r["lang"], "text": r["text"]}
            for r in att
            if r["verdict"] == "allow"
        ]
        out["honest_not_allowed"] = [
            {"family": r["family"], "lang": r["lang"], "verdict": r["verdict"], "text": r["text"]}
            for r in ben
            if r["verdict"] != "allow"
        ]
    return out


def summary(fig: dict[str, Any]) -> str:
    """One line: caught / blocked / held attacks, honest held / blocked."""
    a, h = fig["attacks"], fig["honest"]
    return (
        f"{fig.get('set', 'fresh')} {fig['half']} ({fig['level']}, {fig.get('role', 'held out')}): "
        f"attacks caught {a['caught']['k']}/{a['n']} "
        f"{a['caught']['pct']}% {a['caught']['ci95']} (blocked {a['verdicts']['block']}, "
        f"held {a['verdicts']['hold']}); honest held {h['verdicts']['hold']}/{h['n']}, "
        f"blocked {h['verdicts']['block']}/{h['n']}"
    )


def record_baseline(which: FreshSet = FIRST) -> None:
    """Write the figures of the scanner as it is (both halves, every level, no row texts)."""
    commit = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    out: dict[str, Any] = {
        "commit": commit,
        "note": f"the scanner before {which.before} changed it",
    }
    for level in ("balanced", "strict", "lenient"):
        out[level] = {half: figures(half, level, which=which) for half in _HALVES}
        for half in _HALVES:
            print(summary(out[level][half]))
    which.baseline.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=sorted(SETS), default=FIRST.name)
    ap.add_argument("--split", choices=_HALVES, default="dev")
    ap.add_argument("--level", default="balanced")
    ap.add_argument("--misses", action="store_true", help="list misses (dev half only)")
    ap.add_argument(
        "--record-baseline",
        action="store_true",
        help="write both halves' figures (no texts) at every level to the set's baseline",
    )
    args = ap.parse_args()
    which = SETS[args.set]
    if args.record_baseline:
        record_baseline(which)
        return
    if args.misses and args.split != "dev":
        ap.error("misses are listed for the dev half only (the test half stays unread)")
    fig = figures(args.split, args.level, misses=args.misses, which=which)
    print(summary(fig))
    for key in ("attacks_by_family", "attacks_by_language", "attacks_by_style"):
        if key in fig:
            print(key, {g: f"{v['caught']['k']}/{v['n']}" for g, v in fig[key].items()})
    for m in fig.get("misses", []):
        print("  miss", m["family"], m["lang"], m["text"])
    for m in fig.get("honest_not_allowed", []):
        print("  honest", m["verdict"], m["family"], m["lang"], m["text"])


if __name__ == "__main__":
    main()
