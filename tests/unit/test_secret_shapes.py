"""Credentials recognised by their shape are redacted wherever they appear (a token in a git
remote URL, a key committed to the workspace), and redacting an event's JSON keeps it JSON."""

from __future__ import annotations

import json
import random

import pytest

from openhands_tui.sdk.security.secrets import Redactor

GITHUB = "ghp_" + "a1B2" * 9
SECRET_TEXTS = [
    (f"origin\thttps://x-access-token:{GITHUB}@github.com/o/r.git (fetch)", GITHUB, "user:password in a URL"),
    ("DATABASE_URL=postgres://admin:hunter2hunter2@db:5432/app", "hunter2hunter2", "user:password in a URL"),
    (f"token: {GITHUB}", GITHUB, "GitHub token"),
    ("pat github_pat_" + "x" * 60, "github_pat_" + "x" * 60, "GitHub token"),
    ("glpat-abcdefghij0123456789 is mine", "glpat-abcdefghij0123456789", "GitLab token"),
    ("aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE", "AWS access key"),
    ("SLACK=xoxb-1234567890-abcdefghij", "xoxb-1234567890-abcdefghij", "Slack token"),
    ("key sk-ant-api03-" + "Z" * 40, "sk-ant-api03-" + "Z" * 40, "Anthropic key"),
    ("OPENAI_API_KEY=sk-proj-" + "q" * 40, "sk-proj-" + "q" * 40, "OpenAI-style key"),
    ("AIza" + "S" * 35, "AIza" + "S" * 35, "Google API key"),
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
        "b3BlbnNzaC1rZXktdjEAAAAA",
        "private key",
    ),
]
ORDINARY_TEXTS = [
    "see https://example.com/a/b?x=1 and mail me at user@example.com",
    "git@github.com:owner/repo.git",
    "http://localhost:8080/v1 and http://127.0.0.1:9/v1",
    "sk-short, AKIA-not-a-key, ghp_tooshort, a:b@c without a scheme",
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIB public keys are not secrets",
]


@pytest.mark.parametrize(("text", "secret", "label"), SECRET_TEXTS)
def test_a_secret_shaped_text_is_redacted_with_what_it_was(text: str, secret: str, label: str) -> None:
    redacted = Redactor().redact(text)
    assert secret not in redacted
    assert f"[redacted {label}]" in redacted


@pytest.mark.parametrize("text", ORDINARY_TEXTS)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert Redactor().redact(text) == text


def test_redacting_json_text_keeps_it_json_whatever_surrounds_the_secret() -> None:
    pieces = [
        '"',
        "\\",
        "://",
        "a:b@",
        ":",
        "@",
        "/",
        " ",
        "\n",
        GITHUB,
        "x",
        "sk-ant-" + "k" * 30,
        "-----BEGIN RSA PRIVATE KEY-----",
    ]
    chooser = random.Random(7)
    for _ in range(2000):
        value = "".join(chooser.choice(pieces) for _ in range(chooser.randint(1, 12)))
        line = json.dumps({"text": value, "more": [value]})
        assert isinstance(json.loads(Redactor().redact(line)), dict), line


def test_known_values_and_shapes_are_both_redacted() -> None:
    redactor = Redactor({"LLM_API_KEY": "plain-secret-value"})
    text = f"plain-secret-value and https://u:{GITHUB}@host"
    assert Redactor().redact(text) != text
    redacted = redactor.redact(text)
    assert "plain-secret-value" not in redacted and GITHUB not in redacted
    assert "[redacted LLM_API_KEY]" in redacted
