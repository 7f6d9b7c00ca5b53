"""The claimed-save nudge, through the reference loop against the local stand-in model
over HTTP: replies that claim a save with no memory write are sent back once, ordinary
replies are not, nor a claim after a successful write, an honest "I can't", a quoted
claim, or a session whose provider keeps memory itself.

The phrasings below are the measured fixture: ``docs/agent.md`` reports how many of
each list are nudged (``test_the_fixture_error_rates``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mnemic.agent import AgentSession, ChatAgent
from mnemic.agent.nudge import NUDGE_PREFIX
from mnemic.curated.memory import Memory
from mnemic.llm.openai_client import OpenAIStreamingClient
from mnemic.providers.base import MemoryProvider
from mnemic.testing import FakeLLMServer, Reply, ToolCallReply

CLAIMS = [
    "I'll remember that.",
    "Got it, I'll remember that you prefer metric units.",
    "Saved to memory.",
    "I've saved that to my memory.",
    "Noted.",
    "I'll keep that in mind from now on.",
    "I have noted your preference for dark mode.",
    "Done, I've added it to my memory.",
    "I won't forget it.",
    "Sure! I will remember to answer in Spanish.",
    "Understood. I'll make a note of that.",
    "Memorized.",
    "I’ll remember that you’re vegetarian.",  # typographic apostrophes
    "我记住了。",
    "好的，我会记住你喜欢绿茶。",
    "已保存到记忆中。",
    "明白，记下了。",
    "我会记得的。",
    "Lo recordaré.",
    "Entendido, lo tendré en cuenta.",
    "Me acordaré de eso.",
    "Lo he anotado.",
    "Ich merke mir das.",
    "Alles klar, ich werde mir das merken.",
    "Habe ich mir notiert.",
    "Je m'en souviendrai.",
    "C'est noté !",
    "D'accord, je retiens.",
    "覚えておきます。",
    "メモしました。",
    # written after the patterns, as held-out sets (docs/agent.md: what they first scored)
    "Okay, I've stored that in my memory.",
    "Consider it remembered.",
    "I'll make sure to remember your preference.",
    "Your preference has been saved.",
    "Added to memory ✅",
    "Got it — I'll remember you like window seats.",
    "I've committed that to memory.",
    "Memory updated.",
    "All set, I'll keep this in mind for next time.",
    "I'll note that down.",
    "好的，已经记下来了。",
    "收到，我记住啦。",
    "没问题，我会一直记得。",
    "Vale, lo guardo en mi memoria.",
    "Perfecto, lo recordaré para la próxima vez.",
    "Ok, ich speichere das in meinem Gedächtnis.",
    "Verstanden, das merke ich mir.",
    "Entendu, je vais le retenir.",
    "Très bien, j'ai enregistré ça dans ma mémoire.",
    "了解です、覚えておきますね。",
    "Sure thing! I'll keep your allergy in mind.",
    "Alright, I've memorized your schedule.",
    "Understood — saving that to memory.",
    "Remembered! Your dentist is Dr. Lee.",
    "Thanks, I've recorded that in my memory.",
    "明白了，我会牢记的。",
    "已经帮你记下了。",
    "De acuerdo, no lo olvidaré.",
    "Gut, ich behalte das im Kopf.",
    "Compris, je m'en rappellerai.",
]

ORDINARY = [
    "Saved the image to disk.",
    "I remember you mentioned a cat called Miso.",
    "The file is saved.",
    "Paris is the capital of France.",
    "Here is the summary you asked for.",
    "I saved the report as report.pdf in your downloads folder.",
    "The key is stored in memory until the next flush.",
    "I have added the release notes to the changelog.",
    "Remember to restart the server after the upgrade.",
    "Do you remember where you put the keys?",
    'You said "I\'ll remember that" yesterday, but the log shows no write.',
    "Call `memory.remember()` to persist the value.",
    "> I'll remember that\nThat is what the bot answered.",
    "I can't remember things between sessions, sorry.",
    "I'm unable to save that: the memory is full.",
    "The buffer is written to memory before the flush.",
    "Glad you remembered the umbrella!",
    "文件已保存。",
    "我记得你说过喜欢猫。",
    "这个函数把结果写入内存。",
    "He guardado el archivo en tu carpeta.",
    "Recuerdo que mencionaste tu gato.",
    "Ich erinnere mich, dass du Katzen magst.",
    "Die Datei ist gespeichert.",
    "Je me souviens que tu aimes les chats.",
    "Le fichier est enregistré.",
    "No puedo guardar eso, lo siento.",
    "Noted that the build failed twice; retrying with verbose logs.",
    "Note that the API returns UTC timestamps.",
    "The notes are in docs/notes.md.",
    # held-out sets
    "I saved your draft; you can find it in Drafts.",
    "I remember the old API used XML.",
    "Your changes have been saved to the repository.",
    "The cache keeps results in memory for an hour.",
    "Memory usage is at 80%.",
    "I'll remind you tomorrow at 9.",
    "I won't be able to remember this after the session ends unless you enable memory.",
    "That's a memorable trip!",
    "Remember: measure twice, cut once.",
    "保存成功，文件名为 data.csv。",
    "我记得上次你提到过这个问题。",
    "Guardé los cambios en el documento.",
    "Ich habe die Datei unter /tmp gespeichert.",
    "J'ai enregistré le fichier sur le bureau.",
    "Lo siento, no tengo memoria entre conversaciones.",
    "Do you want me to remember this for next time?",
    "I stored the backup in S3.",
    "The model memorized the training set, which is overfitting.",
    "Saving to disk failed; try again.",
    "Sure, I can help you remember: use a spaced-repetition app.",
    "I've saved the spreadsheet to your Google Drive.",
    "I remember reading that Python 3.12 removed distutils.",
    "The settings were saved successfully.",
    "Your password is stored in the keychain.",
    "Does the app remember your login?",
    "它的内存占用很高。",
    "我记得这个 bug 在 1.2 版本修复了。",
    "El archivo se guardó correctamente.",
    "Ich erinnere mich an das Treffen.",
    "Je ne me souviens pas de ce détail.",
]

REQUESTS = [
    "Remember that I use vim.",
    "From now on, answer in Spanish.",
    "Please remember my sister's birthday is May 3.",
    "Always answer in English.",
    "Don't forget that I'm allergic to peanuts.",
    "记住，我喜欢喝绿茶。",
    "以后都用中文回答。",
    "Merk dir, dass ich Vegetarier bin.",
    "Ab jetzt bitte auf Deutsch.",
    "A partir de ahora responde en inglés.",
    "Désormais, réponds en français.",
    "Keep in mind that I work night shifts.",
]

PLAIN_ASKS = [
    "What is the capital of France?",
    "Do you remember my cat?",
    "Never mind.",
    "你还记得我的猫吗？",
    "Write a haiku about autumn.",
    "I remember when we first met.",
    "Can you save the file as CSV?",
    "Translate 'good night' into German.",
    "Why does it always crash on start?",
    "Summarise this article for me.",
    "Note: the meeting moved to 3pm, what should I prepare?",
    "How do I keep a process running after logout?",
]

NO_EMBEDDING = '[sessions]\nsemantic = "off"\n'
"""The sessions' recorded messages are not embedded: the nudge reads none of it, and with
the semantic extra installed every session loaded the embedder and embedded its turns in
this process (session 50)."""

PLAIN_REPLY = "Sure, here you go."
CORRECTED = "Sorry, I did not save that."


def start(home: Path, server: FakeLLMServer, **agent: Any) -> tuple[AgentSession, ChatAgent]:
    home.mkdir(parents=True, exist_ok=True)
    lines = ["[agent]", "review_every = 0"] + [f"{k} = {json.dumps(v)}" for k, v in agent.items()]
    (home / "config.toml").write_text("\n".join(lines) + "\n" + NO_EMBEDDING)
    client = OpenAIStreamingClient(base_url=server.base_url, model="stand-in", timeout=10)
    session = AgentSession.open(home, client=client, provider=agent.pop("_provider", None))
    return session, ChatAgent(session, client, stream=False)


def scripted(replies: dict[str, str]) -> Any:
    """A stand-in model: the reply scripted for the user's message; a correction when
    the last message is mnemic's note."""

    def respond(request: dict[str, Any]) -> Any:
        last = request["messages"][-1]
        if last["role"] == "user" and str(last["content"]).startswith(NUDGE_PREFIX):
            return CORRECTED
        users = [m for m in request["messages"] if m["role"] == "user"]
        return replies[str(users[-1]["content"]).split("\n\n")[0]]

    return respond


TURNS = 10
"""Turns of one session of :func:`nudged_share`. Each request carries the conversation so
far, and the OpenAI SDK walks all of it before sending: a 60-turn session cost the
square of its length (24 s for the fixture's lists under load, session 50). The nudge
reads the turn alone (its reply and this turn's memory writes), so ten turns a session
judge each item as one session of all of them did."""


def nudged_share(home: Path, pairs: list[tuple[str, str]]) -> list[bool]:
    """For each (user message, model reply): whether the turn was nudged (in sessions of
    :data:`TURNS` turns)."""
    out = []
    with FakeLLMServer(scripted(dict(pairs))) as server:
        for at in range(0, len(pairs), TURNS):
            session, agent = start(home, server)
            out += [agent.run_turn(user).nudged is not None for user, _ in pairs[at : at + TURNS]]
            session.close()
    return out


def test_claims_without_a_memory_call_are_nudged_once(home_path: Path) -> None:
    with FakeLLMServer(
        scripted({"I prefer metric units.": "Got it, I'll remember that."})
    ) as server:
        session, agent = start(home_path, server)
        result = agent.run_turn("I prefer metric units.")
        assert result.nudged is not None and '"I\'ll remember"' in result.nudged
        assert result.text == CORRECTED and result.model_calls == 2
        second = server.requests[1]["messages"]
        assert second[-2] == {"role": "assistant", "content": "Got it, I'll remember that."}
        assert second[-1]["content"].startswith(NUDGE_PREFIX)
        assert session.sessions is not None
        stored = [m.content for m in session.sessions.messages(session.session_id)]
        assert not any(str(c).startswith(NUDGE_PREFIX) for c in stored)  # the user never typed it
        session.close()


def test_the_note_is_sent_once_per_turn(home_path: Path) -> None:
    with FakeLLMServer(["I'll remember that.", "Noted, I'll remember it."]) as server:
        session, agent = start(home_path, server)
        result = agent.run_turn("My cat is called Miso.")
        assert result.nudged is not None and result.model_calls == 2
        assert result.text == "Noted, I'll remember it."  # not sent back a second time
        session.close()


def test_a_claim_after_a_successful_write_is_left_alone(home_path: Path) -> None:
    save = ToolCallReply("memory", {"action": "add", "target": "user", "content": "Cat: Miso."})
    with FakeLLMServer([Reply(tool_calls=[save]), "Saved to memory: your cat is Miso."]) as server:
        session, agent = start(home_path, server)
        result = agent.run_turn("Remember that my cat is called Miso.")
        assert result.nudged is None and result.model_calls == 2
        assert Memory.open(home_path).entries("user") == ["Cat: Miso."]
        session.close()


def test_a_claim_after_a_failed_write_is_nudged(home_path: Path) -> None:
    bad = ToolCallReply("memory", {"action": "remove", "target": "user", "old_text": "nothing"})
    with FakeLLMServer([Reply(tool_calls=[bad]), "Saved to memory.", CORRECTED]) as server:
        session, agent = start(home_path, server)
        result = agent.run_turn("Forget my old address and keep the new one.")
        assert result.nudged is not None and result.text == CORRECTED
        session.close()


def test_the_nudge_can_be_switched_off(home_path: Path) -> None:
    with FakeLLMServer(["I'll remember that."]) as server:
        session, agent = start(home_path, server, save_nudge=False)
        result = agent.run_turn("My cat is called Miso.")
        assert result.nudged is None and result.model_calls == 1
        session.close()


class KeepsMemory(MemoryProvider):
    """A provider that keeps what the user says itself (its sync would extract facts)."""

    name = "keeper"
    keeps_memory = True


def test_a_provider_that_keeps_memory_switches_the_nudge_off(home_path: Path) -> None:
    with FakeLLMServer(["I'll remember that."]) as server:
        home_path.mkdir(parents=True)
        (home_path / "config.toml").write_text("[agent]\nreview_every = 0\n" + NO_EMBEDDING)
        client = OpenAIStreamingClient(base_url=server.base_url, model="stand-in", timeout=10)
        session = AgentSession.open(home_path, client=client, provider=KeepsMemory())
        result = ChatAgent(session, client, stream=False).run_turn("My cat is called Miso.")
        assert result.nudged is None and result.model_calls == 1
        session.close()


def test_a_streamed_claim_is_followed_by_the_correction(home_path: Path) -> None:
    with FakeLLMServer(["I'll remember that.", CORRECTED]) as server:
        session, _ = start(home_path, server)
        client = OpenAIStreamingClient(base_url=server.base_url, model="stand-in", timeout=10)
        shown: list[str] = []
        result = ChatAgent(session, client, stream=True, on_text=shown.append).run_turn("Hi.")
        assert result.nudged is not None
        assert "".join(shown) == "I'll remember that." + CORRECTED  # streamed as it came
        session.close()


def test_without_streaming_only_the_answer_after_the_note_is_shown(home_path: Path) -> None:
    with FakeLLMServer(["I'll remember that.", CORRECTED]) as server:
        session, _ = start(home_path, server)
        client = OpenAIStreamingClient(base_url=server.base_url, model="stand-in", timeout=10)
        shown: list[str] = []
        ChatAgent(session, client, stream=False, on_text=shown.append).run_turn("Hi.")
        assert shown == [CORRECTED]
        session.close()


@pytest.mark.parametrize("claim", CLAIMS)
def test_scripted_claims_are_nudged(home_path: Path, claim: str) -> None:
    assert nudged_share(home_path, [("Hello there.", claim)]) == [True]


def test_the_fixture_error_rates(home_path: Path) -> None:
    """Every list of the fixture through sessions of :data:`TURNS` turns: requests
    nudged, ordinary replies and plain asks not (the figures docs/agent.md reports).
    Every claim is nudged: :func:`test_scripted_claims_are_nudged`, one test a claim (the
    nudge reads the turn alone; this test ran each claim a second time, in sessions of
    ten turns: half its time, session 53)."""
    ordinary = nudged_share(home_path / "b", [(f"Message {i}.", r) for i, r in enumerate(ORDINARY)])
    requests = nudged_share(home_path / "c", [(r, PLAIN_REPLY) for r in REQUESTS])
    plain = nudged_share(home_path / "d", [(a, PLAIN_REPLY) for a in PLAIN_ASKS])
    assert [r for r, hit in zip(ORDINARY, ordinary, strict=True) if hit] == []
    assert [r for r, hit in zip(REQUESTS, requests, strict=True) if not hit] == []
    assert [a for a, hit in zip(PLAIN_ASKS, plain, strict=True) if hit] == []
