"""Claims and verdicts: no verdict without our number, checks, the paper-numbers file."""
import math

import pandas as pd
import pytest

from common import claims


@pytest.fixture
def paper_csv(tmp_path, monkeypatch):
    """Write a paper-numbers CSV and point ``paper_data_path`` at it."""
    path = tmp_path / "toy.csv"
    monkeypatch.setattr(claims.paths, "paper_data_path", lambda paper_key: path)

    def write(text):
        path.write_text(text)
        return path

    return write


@pytest.fixture(autouse=True)
def empty_figures(tmp_path, monkeypatch):
    monkeypatch.setenv("BO_FIGURES_ROOT", str(tmp_path / "figures"))


VALID_CSV = ("table,row,column,value,std,note\n"
             "Table 1,Branin,GP-UCB,0.12,0.03,± is 1 s.e. over 20 runs\n"
             "Table 1,Branin,EI,0.2,,\n")


@pytest.mark.parametrize("verdict", ["reproduced", "partly reproduced", "not reproduced"])
@pytest.mark.parametrize("ours", [None, math.nan, [], "0.3", {"ucb": None}])
def test_comparison_verdict_without_our_number_is_refused(verdict, ours):
    with pytest.raises(ValueError, match="needs our number"):
        claims.claim("C1", "Fig. 1", "UCB wins", verdict=verdict, reason="looks so", method="eye", ours=ours)


def test_not_comparable_needs_no_number():
    made = claims.claim("C1", "Fig. 1", "Works on robots", verdict="not comparable", reason="no robot offline")
    assert made.verdict == "not comparable"


def test_unknown_verdict_is_refused_listing_the_allowed_ones():
    with pytest.raises(ValueError, match="not run at this scale"):
        claims.claim("C1", "Fig. 1", "UCB wins", verdict="kind of", reason="r", ours=1.0)


@pytest.mark.parametrize("ours, verdict", [(1.05, "reproduced"), (1.15, "partly reproduced"),
                                           (0.7, "not reproduced")])
def test_check_close_grades_by_tolerance(ours, verdict):
    assert claims.check_close(ours, 1.0, rel_tol=0.1).verdict == verdict


def test_check_close_needs_exactly_one_tolerance():
    with pytest.raises(ValueError, match="exactly one"):
        claims.check_close(1.0, 1.0)


@pytest.mark.parametrize("ours, verdict", [
    ({"a": 3.0, "b": 2.0, "c": 1.0}, "reproduced"),
    ({"a": 3.0, "b": 1.0, "c": 2.0}, "partly reproduced"),
    ({"a": 1.0, "b": 2.0, "c": 3.0}, "not reproduced"),
])
def test_check_order_counts_pairwise_orderings(ours, verdict):
    assert claims.check_order(ours, ["a", "b", "c"]).verdict == verdict


def test_check_order_lower_is_better_reverses_the_order():
    assert claims.check_order({"a": 1.0, "b": 2.0}, ["a", "b"], higher_is_better=False).verdict == "reproduced"


def test_check_all_is_partly_reproduced_when_half_hold():
    check = claims.check_all({"Branin": True, "Hartmann6": False})
    assert check.verdict == "partly reproduced" and "Hartmann6" in check.reason


def test_check_all_is_not_reproduced_when_one_of_many_holds():
    conditions = {f"cell {i}": i == 0 for i in range(12)}
    assert claims.check_all(conditions).verdict == "not reproduced"


def test_check_all_threshold_counts_conditions():
    conditions = {f"cell {i}": i < 9 for i in range(12)}
    assert claims.check_all(conditions, reproduced_at=0.75).verdict == "reproduced"
    assert claims.check_all(conditions).verdict == "partly reproduced"


def test_claim_below_its_minimum_scale_is_not_run_at_this_scale():
    made = claims.claim("C1", "Fig. 1", "UCB wins", check=claims.check_close(1.0, 1.0, abs_tol=0.1),
                        ours=1.0, scale="smoke", min_scale="paper")
    assert made.verdict == "not run at this scale" and "reproduced" in made.reason


def test_claim_at_its_minimum_scale_keeps_the_check_verdict():
    made = claims.claim("C1", "Fig. 1", "UCB wins", check=claims.check_close(1.0, 1.0, abs_tol=0.1),
                        ours=1.0, scale="paper", min_scale="quick")
    assert made.verdict == "reproduced"


def test_verdict_table_refuses_duplicate_ids():
    made = claims.claim("C1", "Fig. 1", "s", verdict="not comparable", reason="r")
    with pytest.raises(ValueError, match="C1"):
        claims.verdict_table([made, made])


def test_paper_numbers_are_read_and_looked_up(paper_csv):
    paper_csv(VALID_CSV)
    number = claims.paper_number(claims.load_paper_numbers("toy"), "Table 1", row="Branin", column="GP-UCB")
    assert (number.value, number.std, str(number)) == (0.12, 0.03, "0.12 ± 0.03")


def test_paper_number_without_std_has_nan_std(paper_csv):
    paper_csv(VALID_CSV)
    assert math.isnan(claims.paper_number(claims.load_paper_numbers("toy"), "Table 1", row="Branin", column="EI").std)


def test_paper_numbers_may_have_any_label_columns_and_no_std(paper_csv):
    paper_csv("table,problem,method,value\ntable1,Dropwave,UCB,0.27\ntable1,Dropwave,EI,0.3\n")
    number = claims.paper_number(claims.load_paper_numbers("toy"), "table1", problem="Dropwave", method="UCB")
    assert (number.value, number.labels) == (0.27, {"problem": "Dropwave", "method": "UCB"})


def test_ambiguous_paper_number_is_refused(paper_csv):
    paper_csv(VALID_CSV)
    with pytest.raises(KeyError, match="2 numbers"):
        claims.paper_number(claims.load_paper_numbers("toy"), "Table 1", row="Branin")


def test_missing_paper_number_lists_what_exists(paper_csv):
    paper_csv(VALID_CSV)
    with pytest.raises(KeyError, match="GP-UCB"):
        claims.paper_number(claims.load_paper_numbers("toy"), "Table 1", row="Branin", column="PI")


@pytest.mark.parametrize("text, message", [
    ("table,row,column,note\nT,r,c,1\n", "'value'"),
    ("table,row,column,value,std,note\nT,r,c,high,,\n", "'value' must hold numbers"),
    ("table,row,column,value,std,note\nT,r,c,,,\n", "needs a value"),
    ("table,row,column,value,std,note\nT,r,c,1,,\nT,r,c,2,,\n", "more than once"),
])
def test_malformed_paper_numbers_are_refused(paper_csv, text, message):
    paper_csv(text)
    with pytest.raises(ValueError, match=message):
        claims.load_paper_numbers("toy")


def test_saved_verdicts_carry_the_scale_and_read_back():
    table = claims.verdict_table([
        claims.claim("C1", "Table 1", "GP-UCB | EI", check=claims.check_close(0.13, 0.12, abs_tol=0.03),
                     paper=0.12, ours=0.13),
        claims.claim("C2", "Fig. 2", "Robot", verdict="not comparable", reason="simulator substituted"),
    ])
    csv_path, markdown_path = claims.save_verdicts("toy", table, "quick")
    read = pd.read_csv(csv_path, dtype=str, keep_default_na=False)
    assert list(read["scale"]) == ["quick", "quick"] and list(read["verdict"]) == list(table["verdict"])
    assert "1 reproduced, 1 not comparable" in markdown_path.read_text()


def test_save_verdicts_refuses_an_unknown_scale():
    table = claims.verdict_table([claims.claim("C1", "Fig. 1", "s", verdict="not comparable", reason="r")])
    with pytest.raises(ValueError, match="scale"):
        claims.save_verdicts("toy", table, "huge")
