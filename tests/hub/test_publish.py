"""`make publish`: the dry run (no network), and real publishing through the real `HfApi`
against an in-process stand-in for the hub's HTTP API (`hub_doubles.FakeHub`), and against
servers that hang or answer what is not the hub's JSON."""

from __future__ import annotations

import logging
import random
import threading
import time

import datasets
import huggingface_hub
import pyarrow.parquet as pq
import pytest
from hub_doubles import MisbehavingServer, point_the_client_at, send

import poetic_eval
from poetic_eval.cli import main
from poetic_eval.evaluate_modules.spaces import plan_metric_spaces
from poetic_eval.files.dataset_cards import read_built_card
from poetic_eval.hub import (
    ConfigData,
    HubDataset,
    PublishError,
    plan_dataset_uploads,
    publish,
    write_hub_dataset,
)
from poetic_eval.hub.eval_yaml import eval_yaml_text
from poetic_eval.hub.upload_plan import commit_operations

SECRET = "hf_test_secret_token_never_printed"
FEATURES = datasets.Features({"good": datasets.Value("string"), "bad": datasets.Value("string")})
METRICS = poetic_eval.available_metrics()


def build_datasets(root, seed=7):
    """Two built datasets with random rows under ``root``."""
    template = root.parent / "card.md"
    template.write_text("Test card.\n", encoding="utf-8")
    rng = random.Random(seed)
    for name, configs in (("alpha", ["one", "two"]), ("beta", ["only"])):
        rows = {
            config: [
                {"good": f"{rng.random()}", "bad": f"{rng.random()}"}
                for _ in range(rng.randint(1, 30))
            ]
            for config in configs
        }
        dataset = HubDataset(
            name=name,
            pretty_name=name.title(),
            configs=[ConfigData(c, FEATURES, {"test": r}) for c, r in rows.items()],
            seed=0,
            card_template=template,
        )
        write_hub_dataset(dataset, root / name, build_command="test")
    return root


@pytest.fixture()
def built(tmp_path):
    """A datasets folder with two built datasets, a staging leftover and a stray card."""
    root = build_datasets(tmp_path / "datasets")
    (root / ".alpha.building-x").mkdir()  # an interrupted build's staging folder: ignored
    (root / "README.md").write_text("not a dataset\n", encoding="utf-8")
    return root


def expected_files(folder):
    """The built folder's files, and the eval.yaml publishing adds (its tasks: good/bad pairs)."""
    benchmark = eval_yaml_text(read_built_card(folder))
    built_files = sorted(
        (path.relative_to(folder).as_posix(), path.stat().st_size)
        for path in folder.rglob("*")
        if path.is_file()
    )
    return sorted([*built_files, ("eval.yaml", len(benchmark.encode("utf-8")))])


def no_saved_login(monkeypatch, tmp_path):
    """No HF_TOKEN and no token saved by `hf auth login` (whatever this machine has)."""
    monkeypatch.delenv("HF_TOKEN", raising=False)
    monkeypatch.delenv("HUGGING_FACE_HUB_TOKEN", raising=False)
    monkeypatch.setattr(huggingface_hub.constants, "HF_TOKEN_PATH", str(tmp_path / "no-token"))


def test_dry_run_lists_every_operation_and_size_without_network(
    built, fake_hub, monkeypatch, capsys
):
    monkeypatch.setenv("HF_TOKEN", SECRET)
    assert main(["publish", "--datasets", str(built), "--org", "my-org", "--dry-run"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert fake_hub.calls == []
    assert lines[0] == "dry run (--dry-run): nothing is uploaded"
    for name in ("alpha", "beta"):
        assert f"{name} -> https://huggingface.co/datasets/my-org/{name} " in out
        for path, size in expected_files(built / name):
            assert any(line.split() == ["add", path, f"{size:,}", "bytes"] for line in lines)
    assert out.count("  delete  any file under data/ on the hub that is not listed above") == 2
    for plan in plan_metric_spaces("my-org"):
        assert f"{plan.name} -> https://huggingface.co/spaces/my-org/{plan.name} " in out
        for file in plan.files:
            assert any(
                line.split() == ["add", file.path_in_repo, f"{file.size:,}", "bytes"]
                for line in lines
            ), (plan.name, file.path_in_repo)
    assert ".alpha.building" not in out and "warning" not in out
    assert lines[-1].startswith(f"2 dataset repo(s), {len(METRICS)} space repo(s), ")
    assert SECRET not in out


def test_the_dry_run_lists_the_operations_publish_sends(built, fake_hub):
    """The same function makes the dry run's list and the commit: adds of every planned file,
    then deletions of what the hub holds under data/ and the plan lacks."""
    fake_hub.add_repo("dataset", "org/beta", {"data/old/x.parquet": b"old", "keep.txt": b"k"})
    (plan,) = [p for p in plan_dataset_uploads(built, "org") if p.name == "beta"]
    publish([plan], token=SECRET)
    (commit,) = fake_hub.commits()
    sent = [path for _, path in commit[3]]
    listed = [op.path_in_repo for op in commit_operations(plan, ["data/old/x.parquet"])]
    # create_commit sends only what the hub lacks: here every file is new
    assert sent == listed == [f.path_in_repo for f in plan.files] + ["data/old/x.parquet"]
    assert [key for key, _ in commit[3]][-1] == "deletedFile"
    assert "keep.txt" in fake_hub.files("dataset", "org/beta")  # outside data/: kept


def test_no_token_means_dry_run_saying_how_to_log_in(
    built, fake_hub, monkeypatch, capsys, tmp_path
):
    no_saved_login(monkeypatch, tmp_path)
    assert main(["publish", "--datasets", str(built)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "dry run (no Hugging Face token found: run `hf auth login`, set HF_TOKEN, or pass "
        "--token): nothing is uploaded"
    )
    assert "<your-hub-user>/alpha" in out and "<your-hub-user>/mtld" in out
    assert fake_hub.calls == []


def test_the_saved_login_and_the_token_option_are_used(built, fake_hub, monkeypatch, tmp_path):
    """A user who ran `hf auth login` publishes (the token file is huggingface_hub's), and
    --token wins over both it and HF_TOKEN."""
    no_saved_login(monkeypatch, tmp_path)
    saved = tmp_path / "no-token"
    saved.write_text("hf_saved_login_token\n", encoding="utf-8")
    args = ["publish", "--datasets", str(built), "--org", "o", "--skip-metrics"]
    assert main(args) == 0
    assert fake_hub.tokens == {"hf_saved_login_token"}
    monkeypatch.setenv("HF_TOKEN", "hf_environment_token")
    fake_hub.tokens.clear()
    assert main(args) == 0
    assert fake_hub.tokens == {"hf_environment_token"}
    fake_hub.tokens.clear()
    assert main([*args, "--token", "hf_option_token"]) == 0
    assert fake_hub.tokens == {"hf_option_token"}


def test_real_publish_makes_one_commit_per_repo_then_none(built, fake_hub, monkeypatch, capsys):
    monkeypatch.setenv("HF_TOKEN", SECRET)
    fake_hub.add_repo("dataset", "my-org/alpha", {"data/old/test-00000-of-00001.parquet": b"old"})
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 0
    captured = capsys.readouterr()
    assert SECRET not in captured.out + captured.err
    assert fake_hub.tokens == {SECRET}
    commits = fake_hub.commits()
    assert [(c[2], c[1]) for c in commits] == [
        ("dataset", "my-org/alpha"),
        ("dataset", "my-org/beta"),
        *(("space", f"my-org/{name}") for name in METRICS),
    ]
    for name in ("alpha", "beta"):  # the hub now holds exactly the built folder
        on_hub = fake_hub.files("dataset", f"my-org/{name}")
        assert sorted((p, len(c)) for p, c in on_hub.items()) == expected_files(built / name)
    assert commits[0][3][-1] == ("deletedFile", "data/old/test-00000-of-00001.parquet")
    for plan in plan_metric_spaces("my-org"):
        assert fake_hub.files("space", plan.repo_id) == {
            f.path_in_repo: f.read_bytes() for f in plan.files
        }
    spaces = [call for call in fake_hub.calls if call[0] == "create_repo" and call[2] == "space"]
    assert spaces and all(call[3]["space_sdk"] == "gradio" for call in spaces)
    lines = captured.out.splitlines()
    assert lines[0].startswith("alpha: published https://huggingface.co/datasets/my-org/alpha/")
    assert lines[0].endswith("(4 file(s), only those that changed sent, deleted 1)")
    assert len(lines) == 2 + len(METRICS)

    # the same build again: create_commit finds every file on the hub, no commit anywhere
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert captured.err == ""  # nor huggingface_hub's own note on the skipped empty commit
    assert len(fake_hub.commits()) == len(commits)
    assert (
        out.splitlines()[0]
        == "alpha: unchanged, no commit (https://huggingface.co/datasets/my-org/alpha)"
    )
    assert all(": unchanged, no commit (" in line for line in out.splitlines())


def test_rebuilt_dataset_commits_only_its_changed_files(built, fake_hub):
    publish(plan_dataset_uploads(built, "org"), token=SECRET)
    before = len(fake_hub.commits())
    parquet = built / "beta" / "data" / "only" / "test-00000-of-00001.parquet"
    rows = pq.read_table(parquet).to_pylist()
    rows[0]["good"] = "changed"
    pq.write_table(pq.read_table(parquet).from_pylist(rows), parquet)
    results = publish(plan_dataset_uploads(built, "org"), token=SECRET)
    assert len(fake_hub.commits()) == before + 1
    assert [r.commit_url is None for r in results] == [True, False]
    # the hub client sent only the file whose content differs
    assert fake_hub.commits()[-1][3] == [("file", "data/only/test-00000-of-00001.parquet")]
    assert fake_hub.files("dataset", "org/beta")[
        parquet.relative_to(built / "beta").as_posix()
    ] == (parquet.read_bytes())


def test_interrupted_publish_is_finished_by_running_it_again(built, fake_hub, monkeypatch, capsys):
    monkeypatch.setenv("HF_TOKEN", SECRET)
    fake_hub.fail_commit_to = "my-org/beta"
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 1
    captured = capsys.readouterr()
    assert captured.out.splitlines()[0].startswith("alpha: published ")
    error_lines = captured.err.strip().splitlines()
    assert len(error_lines) == 1 and "Traceback" not in captured.err
    assert error_lines[0].startswith(
        f"poetic-eval publish: error: cannot reach the hub at {fake_hub.url} while "
        "committing to dataset repo my-org/beta ("
    )
    assert "run `make publish` again" in error_lines[0]
    assert ("space", "my-org/mtld") not in fake_hub.repos  # it stopped at beta

    fake_hub.fail_commit_to = None
    n_commits = len(fake_hub.commits())
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("alpha: unchanged, no commit")
    assert out[1].startswith("beta: published ") and "(3 file(s), only those" in out[1]
    assert len(fake_hub.commits()) == n_commits + 1 + len(METRICS)


def test_publish_without_org_uses_the_token_user(built, fake_hub):
    plans = plan_dataset_uploads(built, None) + plan_metric_spaces(None, ["mtld"])
    results = publish(plans, token=SECRET)
    assert [c[1] for c in fake_hub.commits()] == ["someone/alpha", "someone/beta", "someone/mtld"]
    assert len(results) == 3
    assert sum(call[0] == "whoami" for call in fake_hub.calls) == 1
    card = fake_hub.files("space", "someone/mtld")["README.md"].decode("utf-8")
    assert 'evaluate.load("someone/mtld")' in card and "<your-hub-user>" not in card


def test_publish_refuses_offline_mode_and_missing_token(built, fake_hub, monkeypatch):
    with pytest.raises(ValueError, match="token is required to publish: run `hf auth login`"):
        publish(plan_dataset_uploads(built, "org"), token="")
    monkeypatch.setattr(huggingface_hub.constants, "is_offline_mode", lambda: True)
    with pytest.raises(ValueError, match="HF_HUB_OFFLINE is set"):
        publish(plan_dataset_uploads(built, "org"), token=SECRET)
    assert fake_hub.calls == []


def test_the_token_appears_in_no_output_or_log(built, fake_hub, monkeypatch, capfd, caplog):
    """A refused token whose error text echoes it (as a proxy or server might): one line,
    without the token, on stdout, stderr or any log record."""
    monkeypatch.setenv("HF_TOKEN", SECRET)
    caplog.set_level(logging.DEBUG)
    # restored after the test: a DEBUG huggingface_hub logger would print the client's own
    # debug lines (e.g. its agent-registry fetch) in later tests that read stderr
    caplog.set_level(logging.DEBUG, logger="huggingface_hub")
    fake_hub.refuse_with = f"401 Unauthorized for token {SECRET}"
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 1
    captured = capfd.readouterr()
    everything = captured.out + captured.err + caplog.text
    assert SECRET not in everything
    assert captured.err.strip().splitlines() == [
        (
            "poetic-eval publish: error: the hub refused the token (HTTP 401) while creating "
            "dataset repo my-org/alpha: use a token with write access to that owner "
            "(https://huggingface.co/settings/tokens; run `hf auth login`, set HF_TOKEN, or "
            "pass --token), or choose another owner with HF_ORG= / --org"
        )
    ]
    assert fake_hub.tokens == {SECRET}


def offline_off_at(monkeypatch, url):
    point_the_client_at(monkeypatch, url)
    monkeypatch.setenv("HF_TOKEN", SECRET)


def test_network_down_is_one_line_through_the_real_client(built, monkeypatch, capfd):
    """The real HfApi against a closed local port (no traffic leaves the machine)."""
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    offline_off_at(monkeypatch, f"http://127.0.0.1:{port}")
    assert main(["publish", "--datasets", str(built), "--org", "my-org"]) == 1
    captured = capfd.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith(
        f"poetic-eval publish: error: cannot reach the hub at http://127.0.0.1:{port} while "
        "creating dataset repo my-org/alpha ("
    )
    assert lines[0].endswith(
        "check the network connection, then run `make publish` again "
        "(repos already published are skipped)"
    )
    assert SECRET not in captured.err


def test_a_hub_that_never_answers_is_one_line_within_the_timeout(built, monkeypatch, capfd):
    """A hub or proxy that accepts connections and never answers: one line after --timeout
    (huggingface_hub's own client waits for ever). Run in a thread, so that a hang fails the
    test instead of stopping the suite."""
    server = MisbehavingServer("hang")
    offline_off_at(monkeypatch, server.url)
    args = ["publish", "--datasets", str(built), "--org", "o", "--timeout", "1"]
    status = []
    run = threading.Thread(target=lambda: status.append(main(args)), daemon=True)
    start = time.monotonic()
    run.start()
    run.join(60)
    server.close()
    assert not run.is_alive(), "publish still waiting for the hub after 60 s"
    assert time.monotonic() - start < 30
    captured = capfd.readouterr()
    assert status == [1] and captured.out == ""
    assert captured.err.strip().splitlines() == [
        (
            f"poetic-eval publish: error: the hub at {server.url} did not answer within 1 s "
            "while creating dataset repo o/alpha: check the network connection or proxy (or "
            "allow longer with --timeout), then run `make publish` again (repos already "
            "published are skipped)"
        )
    ]


@pytest.mark.parametrize(
    ("mode", "reply"),
    [("html", "a reply that is not JSON"), ("empty", "a reply without the field 'url'")],
)
def test_a_reply_that_is_not_the_hubs_is_one_line(built, monkeypatch, capfd, mode, reply):
    server = MisbehavingServer(mode)
    offline_off_at(monkeypatch, server.url)
    try:
        assert main(["publish", "--datasets", str(built), "--org", "o", "--timeout", "5"]) == 1
    finally:
        server.close()
    captured = capfd.readouterr()
    assert captured.out == "" and "Traceback" not in captured.err
    assert captured.err.strip().splitlines() == [
        (
            f"poetic-eval publish: error: {server.url} gave {reply} while creating dataset "
            "repo o/alpha: it does not answer as the Hugging Face hub does (a proxy or captive "
            "portal? check HF_ENDPOINT and the network), then run `make publish` again"
        )
    ]


def test_a_reply_missing_a_field_later_on_is_one_line(built, fake_hub, monkeypatch):
    """The whoami reply without the user's name (today's code: a KeyError traceback)."""
    original = fake_hub._route

    def without_name(handler, method, parts, body):
        if parts == ["api", "whoami-v2"]:
            return send(handler, 200, {"type": "user"})
        return original(handler, method, parts, body)

    monkeypatch.setattr(fake_hub, "_route", without_name)
    with pytest.raises(PublishError, match="gave no user name while asking the hub who owns"):
        publish(plan_dataset_uploads(built, None), token=SECRET)


def test_only_the_files_the_card_lists_are_uploaded(built, fake_hub, tmp_path, capsys):
    """A stray file and a link under data/ (to a secret outside the folder) are left out, by
    name only; the dry run never shows a file's content."""
    secret = tmp_path / "secret.txt"
    secret.write_text("PRIVATE-CONTENT-123\n", encoding="utf-8")
    data = built / "alpha" / "data"
    (data / "notes.txt").write_text("PRIVATE-NOTES-456\n", encoding="utf-8")
    (data / "one" / "extra-00000-of-00001.parquet").symlink_to(secret)
    assert main(["publish", "--datasets", str(built), "--org", "o", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "PRIVATE" not in out
    assert "  left out (not listed in the card): data/notes.txt" in out
    assert "  left out (not listed in the card): data/one/extra-00000-of-00001.parquet" in out
    publish(plan_dataset_uploads(built, "o"), token=SECRET)
    on_hub = fake_hub.files("dataset", "o/alpha")
    assert sorted(on_hub) == sorted(
        [
            "README.md",
            "eval.yaml",
            *(p for p, _ in expected_files(built / "alpha") if "one/test" in p or "two/" in p),
        ]
    )
    assert not any(b"PRIVATE" in content for content in on_hub.values())


@pytest.mark.parametrize("link", ["file", "folder", "outside", "missing"])
def test_a_listed_data_file_that_is_a_link_outside_or_missing_is_refused(
    built, fake_hub, tmp_path, capsys, link
):
    """A link the card lists (the file, or a folder above it), a listed path outside data/, a
    listed file that is missing: a warning in the dry run (which lists the other files), and
    publishing that repo is refused before any request."""
    folder = built / "beta"
    listed = "data/only/test-00000-of-00001.parquet"
    if link == "file":
        (folder / listed).rename(tmp_path / "elsewhere.parquet")
        (folder / listed).symlink_to(tmp_path / "elsewhere.parquet")
        problem = f"{listed}: a symbolic link; publish uploads regular files only"
    elif link == "folder":
        (folder / "data" / "only").rename(tmp_path / "only")
        (folder / "data" / "only").symlink_to(tmp_path / "only")
        problem = f"{listed}: under the symbolic link data/only; publish uploads regular files only"
    elif link == "missing":
        (folder / listed).unlink()
        problem = f"{listed}: listed in the card but missing: the build is incomplete"
    else:
        card = folder / "README.md"
        card.write_text(
            card.read_text(encoding="utf-8").replace(
                f"path: {listed}", "path: data/../../alpha/README.md"
            ),
            encoding="utf-8",
        )
        problem = (
            "data/../../alpha/README.md: the card lists a path outside data/; rebuild the card"
        )
    assert main(["publish", "--datasets", str(built), "--org", "o", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert f"  warning: {problem}; publishing beta is refused until fixed" in out
    assert "  add     README.md" in out.split("beta -> ")[1]
    with pytest.raises(PublishError, match="^refusing to publish beta: "):
        publish(plan_dataset_uploads(built, "o"), token=SECRET)
    assert fake_hub.calls == []


@pytest.mark.parametrize("damage", ["empty", "truncated", "fewer rows"])
def test_a_broken_parquet_is_warned_of_and_refused(built, fake_hub, monkeypatch, capsys, damage):
    parquet = built / "alpha" / "data" / "two" / "test-00000-of-00001.parquet"
    content = parquet.read_bytes()
    n_rows = pq.read_metadata(parquet).num_rows
    if damage == "empty":
        parquet.write_bytes(b"")
        reason = "not a readable parquet file (0 bytes); the build is broken"
    elif damage == "truncated":
        parquet.write_bytes(content[: len(content) // 2])
        reason = f"not a readable parquet file ({len(content) // 2:,} bytes, "
    else:
        pq.write_table(pq.read_table(parquet).slice(0, n_rows - 1), parquet)
        reason = f"{n_rows - 1:,} rows, the card says {n_rows:,}; the file was changed"
    monkeypatch.setenv("HF_TOKEN", SECRET)
    assert main(["publish", "--datasets", str(built), "--org", "o", "--dry-run"]) == 0
    warnings = [line for line in capsys.readouterr().out.splitlines() if "warning" in line]
    assert len(warnings) == 1
    assert warnings[0].startswith(f"  warning: data/two/test-00000-of-00001.parquet: {reason}")
    assert main(["publish", "--datasets", str(built), "--org", "o"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith(
        f"poetic-eval publish: error: refusing to publish alpha: "
        f"data/two/test-00000-of-00001.parquet: {reason}"
    )
    assert "nothing was uploaded" in err[0]
    assert fake_hub.calls == []  # refused before any request


def test_a_card_that_is_not_utf8_is_named_in_one_line(built, capsys):
    card = built / "beta" / "README.md"
    card.write_bytes(card.read_bytes().replace(b"Test card.", b"Test caf\xe9 card."))
    offset = card.read_bytes().index(b"\xe9")
    assert main(["publish", "--datasets", str(built), "--dry-run"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.strip().splitlines() == [
        (
            f"poetic-eval publish: error: {card} is not UTF-8 (byte {offset}): "
            "save the dataset card as UTF-8, or rebuild it (make build)"
        )
    ]


def test_missing_or_empty_datasets_folder(tmp_path, capsys):
    assert main(["publish", "--datasets", str(tmp_path / "absent")]) == 1
    assert "run `make build` first" in capsys.readouterr().err
    with pytest.raises(FileNotFoundError, match="no built datasets"):
        plan_dataset_uploads(tmp_path, None)
    assert main(["publish", "--skip-datasets", "--dry-run"]) == 0
    assert f"{len(METRICS)} space repo(s)" in capsys.readouterr().out


def test_a_card_the_hub_finds_invalid_is_one_line(built, fake_hub, monkeypatch):
    """The hub's validate-yaml refusal (which huggingface_hub raises as a multi-line
    ValueError before uploading anything) is one line naming the repo."""
    original = fake_hub._route

    def refuse_yaml(handler, method, parts, body):
        if parts == ["api", "validate-yaml"]:
            return send(handler, 400, {"errors": [{"message": '"license" must be a string'}]})
        return original(handler, method, parts, body)

    monkeypatch.setattr(fake_hub, "_route", refuse_yaml)
    with pytest.raises(PublishError) as refused:
        publish(plan_dataset_uploads(built, "o"), token=SECRET)
    assert str(refused.value) == (
        "the hub client refused committing to dataset repo o/alpha: Invalid metadata in "
        'README.md. - "license" must be a string; run `make publish` again (repos already '
        "published are skipped) once that is fixed"
    )
    assert fake_hub.commits() == []
