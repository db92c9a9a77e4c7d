"""Hub replies that could break the reader or the terminal (issue 39, items 4 and 5): a reply of
deeply nested JSON is one line, not a RecursionError, and control characters in an error body
are escaped."""

from __future__ import annotations

import pytest
from hub_doubles import send
from test_publish import SECRET, build_datasets

from poetic_eval.cli import main
from poetic_eval.hub import PublishError, plan_dataset_uploads, publish


@pytest.fixture()
def built(tmp_path):
    return build_datasets(tmp_path / "datasets")


def _answer_whoami(monkeypatch, fake_hub, status, body):
    original = fake_hub._route

    def answer(handler, method, parts, request_body):
        if parts == ["api", "whoami-v2"]:
            return send(handler, status, body)
        return original(handler, method, parts, request_body)

    monkeypatch.setattr(fake_hub, "_route", answer)


def test_a_deeply_nested_reply_is_one_line(built, fake_hub, monkeypatch):
    _answer_whoami(monkeypatch, fake_hub, 200, b"[" * 200_000 + b"]" * 200_000)
    with pytest.raises(
        PublishError, match="gave a reply nested too deeply to read while"
    ) as raised:
        publish(plan_dataset_uploads(built, None), token=SECRET)
    assert "\n" not in str(raised.value)


def test_control_characters_of_an_error_body_are_escaped(built, fake_hub, monkeypatch, capfd):
    body = {"error": "boom\x1b[2J\x1b]8;;http://evil\x07click\u202e"}
    _answer_whoami(monkeypatch, fake_hub, 500, body)
    with pytest.raises(PublishError) as raised:
        publish(plan_dataset_uploads(built, None), token=SECRET)
    assert "\x1b" not in str(raised.value) and r"boom\x1b[2J\x1b]8;;http://evil\x07" in str(
        raised.value
    )
    monkeypatch.setenv("HF_TOKEN", SECRET)
    assert main(["publish", "--datasets", str(built), "--timeout", "5"]) == 1
    err = capfd.readouterr().err
    assert "\x1b" not in err and "\x07" not in err and "\u202e" not in err
    assert "HTTP 500" in err
