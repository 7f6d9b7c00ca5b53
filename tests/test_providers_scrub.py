"""Secret redaction before anything reaches a memory provider."""

from __future__ import annotations

import pytest

from mnemic.providers import scrub_text as scrub, scrub_value

SECRETS = [
    ("sk-proj-" + "Ab12Cd34" * 5, "api_key"),
    ("ghp_" + "a1B2" * 9, "github_token"),
    ("glpat-" + "x1Y2z3" * 4, "gitlab_token"),
    ("AKIA" + "ABCDEFGH12345678", "aws_key"),
    ("AIza" + "B" * 35, "google_key"),
    ("xoxb-1234567890-abcdefghij", "slack_token"),
    ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
     "jwt"),
]  # fmt: skip


@pytest.mark.parametrize(("secret", "kind"), SECRETS)
def test_known_formats_are_redacted(secret: str, kind: str) -> None:
    out = scrub(f"the value is {secret} ok")
    assert secret not in out and f"[REDACTED:{kind}]" in out and out.endswith(" ok")


def test_assignments_urls_bearer_and_keys() -> None:
    text = (
        "password=hunter22; Authorization: Bearer abcdefghijklmnop1234\n"
        'postgres://bob:s3cretpw@db.example/app {"api_key": "AbC123xyz789"}\n'
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----"
    )
    out = scrub(text)
    for secret in ("hunter22", "abcdefghijklmnop1234", "s3cretpw", "AbC123xyz789", "b3BlbnNz"):
        assert secret not in out
    assert "postgres://bob:[REDACTED:url_password]@db.example" in out


def test_ordinary_text_is_left_alone() -> None:
    text = "max_tokens: 5120, token: expired, the password policy changed, see docs."
    assert scrub(text) == text
    assert scrub("") == ""


def test_nested_values() -> None:
    key = "sk-" + "Zz9" * 10
    value = {"a": [f"use {key}", {"token": "Tok3nValue99"}], "n": 3, "t": (key,)}
    out = scrub_value(value)
    assert key not in repr(out) and "Tok3nValue99" not in repr(out)
    assert out["n"] == 3
