"""The `solve c2c` command: bad input gives one line and exit code 2."""

import json

import pytest

from solvers.cli.main import main
from solvers.games.c2c.data import load_map

MAP = load_map()
NAMES = [l.name for l in MAP.locations]


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        import io
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def one_error_line(err):
    lines = [l for l in err.splitlines() if l.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_help_teaches(capsys):
    code, out, _ = run(capsys, "c2c", "--help")
    assert code == 0
    assert "--challenge" in out and "--deal" in out and "--all-challenges" in out


def test_unknown_challenge_names_the_nearest(capsys):
    code, _, err = run(capsys, "c2c", "--challenge", "Wrigly Field")
    assert code == 2
    assert "Wrigley Field" in one_error_line(err)


@pytest.fixture
def deal_file(tmp_path):
    def write(lines):
        p = tmp_path / "deal.txt"
        p.write_text("\n".join(lines) + "\n")
        return str(p)
    return write


def test_deal_with_wrong_count(capsys, deal_file):
    code, _, err = run(capsys, "c2c", "--deal", deal_file(NAMES[:23]))
    assert code == 2
    assert "23 cards" in one_error_line(err)


def test_deal_with_a_duplicate(capsys, deal_file):
    code, _, err = run(capsys, "c2c", "--deal", deal_file(NAMES[:23] + [NAMES[3]]))
    assert code == 2
    assert "twice" in one_error_line(err)


def test_deal_holding_the_challenge_card(capsys, deal_file):
    code, _, err = run(capsys, "c2c", "--deal", deal_file(NAMES[:24]), "--challenge", NAMES[5])
    assert code == 2
    assert "challenge card" in one_error_line(err)


def test_deal_with_unknown_location(capsys, deal_file):
    code, _, err = run(capsys, "c2c", "--deal", deal_file(NAMES[:23] + ["Hollywod"]))
    assert code == 2
    line = one_error_line(err)
    assert "line 24" in line and "Hollywood" in line


def test_missing_deal_file(capsys, tmp_path):
    code, _, err = run(capsys, "c2c", "--deal", str(tmp_path / "nope.txt"))
    assert code == 2
    assert "cannot read" in one_error_line(err)


@pytest.mark.parametrize("content,needle", [
    ("{not json", "not valid JSON"),
    ('{"highways": []}', "highways"),
    ("[]", "JSON object"),
])
def test_malformed_map_file(capsys, tmp_path, content, needle):
    p = tmp_path / "map.json"
    p.write_text(content)
    code, _, err = run(capsys, "c2c", "--map", str(p), "--challenge", "The Alamo")
    assert code == 2
    assert needle in one_error_line(err)


def test_map_file_with_unknown_line_end(capsys, tmp_path):
    data = MAP.to_json()
    data["solid_lines"][0] = ["Space Needle", "Atlantis"]
    p = tmp_path / "map.json"
    p.write_text(json.dumps(data))
    code, _, err = run(capsys, "c2c", "--map", str(p), "--challenge", "The Alamo")
    assert code == 2
    assert "Atlantis" in one_error_line(err)


def test_disconnected_map_is_refused(capsys, tmp_path):
    data = MAP.to_json()
    data["dashed_lines"] = []
    p = tmp_path / "map.json"
    p.write_text(json.dumps(data))
    code, _, err = run(capsys, "c2c", "--map", str(p), "--challenge", "The Alamo")
    assert code == 2
    assert "not connected" in one_error_line(err)


def test_csv_needs_all_challenges(capsys):
    code, _, err = run(capsys, "c2c", "--challenge", "The Alamo", "--csv")
    assert code == 2
    assert "--csv goes with --all-challenges" in one_error_line(err)


def test_bad_option_value(capsys):
    code, _, err = run(capsys, "c2c", "--challenge", "The Alamo", "--shuffles", "zero")
    assert code == 2
    assert "--shuffles" in one_error_line(err)
