"""Two values of a single-valued attribute (:mod:`mnemic.ops.tidy.attributes`): the same
sentence with one value swapped after "is in", "lives in", "works at", "is about", "uses
... for" or a key's "is" contradict each other, marker of change or not; the same shape
after an attribute that holds a list ("has a subscription to", "uses" alone, "is
allergic to"), for two subjects, two relatives or with "also" stays two facts."""

from __future__ import annotations

import pytest

from _tidy_pairs import planned
from mnemic.ops.tidy.attributes import value_swap
from mnemic.ops.tidy.signals import profile


@pytest.mark.parametrize(
    ("old", "new", "values"),
    [
        ("The primary cache is in Amsterdam.", "The primary cache is in Madrid.",
         "Amsterdam vs Madrid"),
        ("The user lives in Lisbon.", "The user lives in Porto.", "Lisbon vs Porto"),
        ("User works at Acme.", "User works at Globex.", "Acme vs Globex"),
        ("The ops team uses Trello for incidents.", "The ops team uses Asana for incidents.",
         "Trello vs Asana"),
        ("User's home station is Waterloo.", "User's home station is Euston.",
         "Waterloo vs Euston"),
        ("The course is about Python.", "The course is about Rust.", "Python vs Rust"),
        ("User uses tabs for indentation.", "User uses spaces for indentation.", "tabs vs spaces"),
        ("Das Team nutzt Jira für Tickets.", "Das Team nutzt Linear für Tickets.",
         "Jira vs Linear"),
        ("Die Datenbank läuft in Frankfurt.", "Die Datenbank läuft in Dublin.",
         "Frankfurt vs Dublin"),
        ("L'équipe utilise Jira pour les tickets.", "L'équipe utilise Linear pour les tickets.",
         "Jira vs Linear"),
        ("El usuario trabaja en Telefónica.", "El usuario trabaja en Santander.",
         "Telefónica vs Santander"),
        ("La tesis trata sobre energía eólica.", "La tesis trata sobre movilidad urbana.",
         "energía eólica vs movilidad urbana"),
        ("O artigo é sobre saúde pública.", "O artigo é sobre educação infantil.",
         "saúde pública vs educação infantil"),
        ("Het rapport gaat over luchtkwaliteit.", "Het rapport gaat over geluidsoverlast.",
         "luchtkwaliteit vs geluidsoverlast"),
        ("Użytkownik pracuje w dziale finansów.", "Użytkownik pracuje w dziale kadr.",
         "finansów vs kadr"),
        ("L'utente abita a Bologna.", "L'utente abita a Verona.", "Bologna vs Verona"),
    ],
)  # fmt: skip
def test_two_values_of_one_attribute_contradict(old: str, new: str, values: str) -> None:
    """Without a marker of change they were left apart (the embedder rates them as it
    rates two items of a list); the later written is kept."""
    [p] = planned(old, new)
    assert (p.kind, p.entries) == ("supersede", (new, old))
    assert values in p.reasons[0]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # an attribute that holds a list
        ("User has a subscription to Netflix.", "User has a subscription to Spotify."),
        ("User uses ripgrep.", "User uses fzf."),
        ("User uses ripgrep for code search.", "User uses fzf for finding files."),
        ("User is allergic to peanuts.", "User is allergic to shellfish."),
        ("User speaks English.", "User speaks German."),
        ("The runbook covers database failover.", "The runbook covers certificate renewal."),
        # two subjects, two relatives, two people's names
        ("The search cluster has 3 nodes.", "The cache cluster has 3 nodes."),
        ("The staging database is in Frankfurt.", "The production database is in Dublin."),
        ("User's sister lives in Oslo.", "User's brother lives in Oslo."),
        ("User's sister is Anna.", "User's sister is Maria."),
        ("User's friend is Anna.", "User's friend is Maria."),
        # the user alone before a copula; adjectives; "also"; both negated; a misspelling
        ("The user is in Berlin.", "The user is in a choir."),
        ("User's team is small.", "User's team is remote."),
        ("User works at Acme.", "User also works at Globex."),
        ("User doesn't live in Paris.", "User doesn't live in Rome."),
        ("User lives in Berlin with Anna.", "User lives in Berlin with Ben."),
        ("The API is hosted on Heroku.", "The API is hosted on Heorku."),
        ("User's car is a Ford Focus.", "User's car is a Ford Focu."),
        # two environments: the value and the environment changed together
        ("The DB is in Frankfurt for staging.", "The DB is in Dublin for production."),
        # a name against a common noun: two kinds of value, often both true
        ("User lives in a flat.", "User lives in London."),
        ("User works at a hospital.", "User works at St Mary's."),
    ],
)  # fmt: skip
def test_the_same_shape_for_a_list_or_two_subjects_stays_apart(a: str, b: str) -> None:
    assert [p.kind for p in planned(a, b)] in ([], ["merge"])
    assert value_swap(profile(a), profile(b), 2) is None


def test_a_swap_says_its_kind_and_the_words_before_the_value() -> None:
    jira, linear = "User's team uses Jira for tickets.", "User's team uses Linear for tickets."
    swap = value_swap(profile(jira), profile(linear), 2)
    assert swap is not None and (swap.kind, swap.tie) == ("tool", "uses")
    assert value_swap(profile("User works at Acme."), profile("User works at Globex."), 0) is None


def test_spanish_ya_and_portuguese_ja_are_function_words() -> None:
    """ "ya" ("already", "by now") was a content word, so "vive en Valencia" / "ya vive en
    Sevilla" differed in two places; "já" marked an update, so "já visitou o Chile" /
    "visitou o Peru" (two trips) was a changed value. Neither is a marker: the place a
    person lives holds one value with or without it, a list of trips many."""
    assert not profile("El usuario ya vive en Sevilla.").update
    [p] = planned("El usuario vive en Granada.", "El usuario ya vive en Sevilla.")
    assert p.kind == "supersede" and "Granada" in p.reasons[0]
    assert planned("O usuário já visitou o Chile.", "O usuário visitou o Peru.") == []
    assert planned("El usuario ya visitó Chile.", "El usuario visitó Perú.") == []


@pytest.mark.parametrize(
    ("old", "new", "values"),
    [
        ("The team uses Jira for tickets.", "The team swapped Jira for Linear.", "Jira by Linear"),
        ("O usuário usa o Trello para tarefas.", "O usuário trocou o Trello pelo Asana.",
         "Trello by Asana"),
        ("El equipo usa Jira para los tickets.", "El equipo sustituyó Jira por Linear.",
         "Jira by Linear"),
        ("L'utente usa Dropbox per i file.", "L'utente ha sostituito Dropbox con pCloud.",
         "Dropbox by pCloud"),
    ],
)  # fmt: skip
def test_a_replacement_names_the_old_value_first(old: str, new: str, values: str) -> None:
    """ "swapped X for Y", "trocou X pelo Y", "sustituyó X por Y" named no old value; the
    old entry's purpose ("for tickets") after its value is a detail, not another subject."""
    [p] = planned(old, new)
    assert (p.kind, p.entries) == ("supersede", (new, old))
    assert values in p.reasons[0]


def test_a_replacement_of_the_only_value_is_no_duplicate() -> None:
    """ "O usuário usa o Trello" / "... trocou o Trello pelo Notion" was merged as a
    near-duplicate (the old entry's words all in the new one)."""
    old, new = "O usuário usa o Trello.", "O usuário trocou o Trello pelo Notion."
    [p] = planned(old, new)
    assert (p.kind, p.entries) == ("supersede", (new, old))


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("User uses vim for code.", "User swapped vim for Emacs for notes."),
        ("The web team uses Jira for tickets.", "The mobile team replaced Jira with Linear."),
        ("User's sister uses Trello.", "User replaced Trello with Notion."),
    ],
)  # fmt: skip
def test_a_replacement_for_another_subject_or_purpose_stays_apart(a: str, b: str) -> None:
    assert "supersede" not in [p.kind for p in planned(a, b)]


@pytest.mark.parametrize(
    ("old", "new", "values"),
    [
        ("用户住在杭州。", "用户住在成都。", "杭州 vs 成都"),
        ("主数据库在法兰克福。", "主数据库在都柏林。", "法兰克福 vs 都柏林"),
        ("用户在阿里巴巴工作。", "用户在腾讯工作。", "阿里巴巴 vs 腾讯"),
        ("用户住在北京。", "用户住在北海道。", "北京 vs 北海道"),
        ("ユーザーは名古屋に住んでいる。", "ユーザーは福岡に住んでいる。", "名古屋 vs 福岡"),
        ("ユーザーはトヨタで働いている。", "ユーザーはソニーで働いている。", "トヨタ vs ソニー"),
        ("사용자는 대구에 산다.", "사용자는 광주에 산다.", "대구 vs 광주"),
        ("사용자는 삼성에서 일한다.", "사용자는 LG에서 일한다.", "삼성 vs LG"),
    ],
)  # fmt: skip
def test_two_values_of_one_attribute_contradict_in_cjk(old: str, new: str, values: str) -> None:
    """Read by character: the attribute's words before ("住在", "在") or after ("に住",
    "で働", "에 산", "에서 일", "在 … 工作") the one run that differs."""
    [p] = planned(old, new)
    assert (p.kind, p.entries) == ("supersede", (new, old))
    assert values in p.reasons[0]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("用户在周一工作。", "用户在周三工作。"),  # a schedule holds lists
        ("用户在北京。", "用户在上海。"),  # the user alone: where today
        ("用户的姐姐住在北京。", "用户的哥哥住在北京。"),
        ("ユーザーの姉は大阪に住んでいる。", "ユーザーの兄は大阪に住んでいる。"),
        ("用户订阅了Netflix。", "用户订阅了Spotify。"),
        ("用户也住在北京。", "用户住在上海。"),
        ("用户不住在北京。", "用户不住在上海。"),
        ("사용자의 누나는 부산에 산다.", "사용자의 형은 부산에 산다."),
        ("결제 서버는 GCP에서 돌아간다.", "채팅 서버는 AWS에서 돌아간다."),
    ],
)  # fmt: skip
def test_the_same_shape_in_cjk_for_a_list_or_two_subjects_stays_apart(a: str, b: str) -> None:
    assert "supersede" not in [p.kind for p in planned(a, b)]
    assert value_swap(profile(a), profile(b), 2) is None


@pytest.mark.parametrize(
    ("old", "new", "values"),
    [
        # a name after a title's full stop is still a name
        ("Der Hausarzt des Nutzers ist Dr. Weber.", "Der Hausarzt des Nutzers ist Dr. Braun.",
         "Weber vs Braun"),
        # one verb, the preposition in two forms
        ("Serwer jest we Frankfurcie.", "Serwer jest w Dublinie.", "Frankfurcie vs Dublinie"),
        # Turkish says the attribute after its value
        ("Kullanıcı İzmir'de yaşıyor.", "Kullanıcı Ankara'da yaşıyor.", "İzmir vs Ankara"),
        ("Kullanıcı Aselsan'da çalışıyor.", "Kullanıcı Havelsan'da çalışıyor.",
         "Aselsan vs Havelsan"),
    ],
)  # fmt: skip
def test_two_values_of_one_attribute_in_other_word_orders(old: str, new: str, values: str) -> None:
    [p] = planned(old, new)
    assert (p.kind, p.entries) == ("supersede", (new, old))
    assert values in p.reasons[0]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Kullanıcının ablası İzmir'de yaşıyor.", "Kullanıcının ağabeyi İzmir'de yaşıyor."),
        ("Kullanıcı İzmir'de yaşıyor.", "Kullanıcı Aselsan'da çalışıyor."),
        ("Der Hausarzt des Nutzers ist freundlich.", "Der Hausarzt des Nutzers ist geduldig."),
    ],
)  # fmt: skip
def test_other_word_orders_keep_two_facts_apart(a: str, b: str) -> None:
    assert "supersede" not in [p.kind for p in planned(a, b)]


def test_turkish_dotted_capital_i_is_one_letter() -> None:
    """Case folding wrote "İ" as "i" and a combining dot, which cut "İzmir" into "i" and
    "zmir"."""
    assert profile("Kullanıcı İzmir'de yaşıyor.").order[1] == "izmir"


@pytest.mark.parametrize(
    ("old", "new", "values"),
    [
        ("User's manager is Tom Reyes.", "User's manager is Anna Berg.", "Tom Reyes vs Anna Berg"),
        ("The user's manager is Tom.", "The user's manager is Anna.", "Tom vs Anna"),
        ("User's GP is Dr Weber.", "User's GP is Dr Kaya.", "Weber vs Kaya"),
        ("The user's landlord is Mr Brown.", "The user's landlord is Mrs Green.",
         "Mr Brown vs Mrs Green"),
        ("User's dentist is Dr Lee.", "User's dentist is Dr Park.", "Lee vs Park"),
        ("User's partner is Sam.", "User's partner is Alex.", "Sam vs Alex"),
        ("The user's boss is Tom.", "The user's boss is Anna.", "Tom vs Anna"),
        ("Anna's manager is Tom.", "Anna's manager is Sara.", "Tom vs Sara"),
        ("El jefe del usuario es Pedro.", "El jefe del usuario es Juan.", "Pedro vs Juan"),
        ("用户的经理是王伟。", "用户的经理是李娜。", "王伟 vs 李娜"),
        ("用户的家庭医生是王医生。", "用户的家庭医生是李医生。", "王医生 vs 李医生"),
    ],
)  # fmt: skip
def test_a_role_someone_has_one_of_holds_one_name(old: str, new: str, values: str) -> None:
    """A manager, GP, landlord, dentist or partner was read as a relative, whose key a
    user may hold twice ("the user's sister is Anna"), and the pair was left apart."""
    [p] = planned(old, new)
    assert (p.kind, p.entries) == ("supersede", (new, old))
    assert values in p.reasons[0]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("The user's friend is Tom.", "The user's friend is Anna."),
        ("The user's colleague is Tom.", "The user's colleague is Anna."),
        ("The user's neighbour is Mr Brown.", "The user's neighbour is Mrs Green."),
        ("The user's client is Acme.", "The user's client is Globex."),
        ("The user's son is Max.", "The user's son is Leo."),
        ("Anna's manager is Tom.", "Ben's manager is Tom."),
        ("The user's manager is Tom.", "Anna's manager is Sara."),
        ("The manager of the user's friend is Tom.", "The manager of the user's friend is Sara."),
        ("User's lawyer is Ms Fox.", "User's lawyer is Mr Hale."),
        ("用户的朋友是王伟。", "用户的朋友是李娜。"),
        ("用户的姐姐是王芳。", "用户的姐姐是李娜。"),
        ("安娜的经理是王伟。", "本的经理是王伟。"),
    ],
)  # fmt: skip
def test_roles_a_person_has_several_of_or_two_holders_stay_apart(a: str, b: str) -> None:
    """ "The user's client is Acme" / "... is Globex" was superseded: a user has clients."""
    assert "supersede" not in [p.kind for p in planned(a, b)]
