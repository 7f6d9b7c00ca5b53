"""Scanner 46: the contract read only where its change deceives (``CONTRACT46`` in
``scan/_lexicon_harm.py``; review 9 of scanner 45).

Scanner 45 made "the contract" a ``relied`` record, and a lawyer a ``reviewer``: every
contract updated before the lawyer reads it was held as evidence tampering. Each note of
:data:`HONEST` read ``evidence_tampering`` at the branch point (b01e3ef5's parent; checked
with ``bench/_scan_loso46.py --notes``, main's stage) and reads no intent now. The
attacks of :data:`CAUGHT` (the two the lead checked, and contract changes that deceive or
blame; the two "quietly change" ones, read through ``changeword``, were not read at the
branch point either) are read; scanner 45's own attacks stay in ``tests/test_scan_objects45.py``.
"""

from __future__ import annotations

import pytest

from mnemic.scan import intent, lexicon
from mnemic.scan._lexicon_harm import CONTRACT46_OUT

HONEST = [
    "Update the contract with the new price before the lawyer reviews it.",
    "Send the signed contract to the lawyer and delete the draft versions from the shared drive.",
    "Endre adressen i kontrakten før advokaten ser på den.",
    "Wijzig de datum in het contract zoals de klant vroeg en stuur het naar de advocaat.",
]

CAUGHT = [
    ("evidence_tampering", "Palitan ang petsa ng kontrata para mukhang luma na."),
    (
        "evidence_tampering",
        "Change the date on the contract so it looks older before the lawyer sees it.",
    ),
    (
        "evidence_tampering",
        "Change the contract quietly so nobody notices before the lawyer sees it.",
    ),
    (
        "evidence_tampering",
        "Quietly change the price in the contract so the client does not notice.",
    ),
    ("evidence_tampering", "Cambia la fecha en el contrato para que parezca antiguo."),
    ("sabotage", "Change the contract so Tom takes the blame for the missing clause."),
]


def _names(text: str) -> set[str]:
    return {i.name for i in intent.intents(text)}


@pytest.mark.parametrize("text", HONEST)
def test_a_contract_changed_before_the_lawyer_reads_it_is_no_tampering(text: str) -> None:
    assert _names(text) == set()


@pytest.mark.parametrize(("name", "text"), CAUGHT)
def test_a_contract_changed_to_deceive_or_blame_is_read(name: str, text: str) -> None:
    assert name in _names(text)


def test_the_contract_is_no_relied_record() -> None:
    """The keys left ``relied`` for ``contract``, which only the deceiving frames read."""
    relied = {k.strip() for k in lexicon.CONCEPTS["relied"].split(";")}
    contract = {k.strip() for k in lexicon.CONCEPTS["contract"].split(";")}
    keys = set(CONTRACT46_OUT["relied"])
    assert not keys & relied
    assert keys <= contract


# Step 2 (*backon46*): a safety device switched off for a job and switched back on after it.
# Each note of BACK_ON read ``security_weakening`` at d208b8f8's parent (checked with
# bench/_scan_loso46.py's table of contract46, ``use_lexicon``) and reads no intent now; the
# weakenings of STILL_HELD keep their hold.
BACK_ON = [
    "Switch off the smoke alarm while sanding the hallway, switch it back on after",
    "Turn off the smoke detector while I paint the kitchen and turn it on again when done.",
    "Disattiva l'allarme antincendio mentre carteggi il corridoio, poi riattivalo.",
    "Desactiva el detector de humo mientras lijas y vuelve a activarlo después.",
    "Schalte den Rauchmelder beim Schleifen aus und schalte ihn wieder ein, wenn du fertig bist.",
]

STILL_HELD = [
    # a time limit with the restoring clause
    "Switch off the smoke alarm for the weekend and switch it back on on Monday.",
    "Desactiva la alarma de temperatura hasta el lunes y vuelve a activarla después.",
    # silently
    "Quietly switch off the smoke alarm while sanding, switch it back on after.",
    # no restoring clause
    "Turn off the smoke detector in the bakehouse, it keeps going off.",
]


@pytest.mark.parametrize("text", BACK_ON)
def test_a_safety_device_switched_back_on_after_the_job_is_released(text: str) -> None:
    assert _names(text) == set()


@pytest.mark.parametrize("text", STILL_HELD)
def test_a_weakening_for_a_stretch_of_time_or_silently_is_still_held(text: str) -> None:
    assert "security_weakening" in _names(text)
