"""Pages dated in their names go into runs of years (:mod:`kas_tui.text.year_runs`)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kas_tui.text.year_runs import dated_year, post_date, year_runs


def test_a_date_opening_a_name_dates_it() -> None:
    assert dated_year("2014-05-06-jekyll-turns-2-0-0") == "2014"
    assert dated_year("2021-03-09-release") == "2021"
    assert dated_year("2019-12-31") == "2019"
    assert post_date("2014-5-6-jekyll-1-0") == ("2014", "5", "6", "jekyll-1-0")  # as Jekyll
    for undated in ("2021-13-01-x", "1501-01-01-x", "install", "20210309-x", "2021-02-32-x"):
        assert dated_year(undated) is None, undated


def test_years_run_together_up_to_the_capacity_and_are_named_by_their_span() -> None:
    members = [(f"p{n}", str(2013 + n % 4)) for n in range(20)]  # five posts a year
    runs = year_runs(members, 10)
    assert [(r.label, len(r.members)) for r in runs] == [("2013 to 2014", 10), ("2015 to 2016", 10)]
    assert runs[0].members[:2] == ["p0", "p12"]  # by year, then by name
    big = year_runs([(f"a{n}", "2020") for n in range(30)] + [("b", "2021")], 10)
    assert [(r.label, len(r.members)) for r in big] == [("2020", 30), ("2021", 1)]
    assert year_runs([("a", "2020"), ("b", "2020")], 10) == []  # one year: nothing to tell apart
    assert year_runs([("a", "2020"), ("b", "2021")], 10) == []  # one run


@given(
    st.lists(st.integers(min_value=1990, max_value=2030), min_size=0, max_size=80),
    st.integers(min_value=1, max_value=40),
)
def test_every_member_is_in_one_run_in_year_order(years: list[int], capacity: int) -> None:
    members = [(f"k{n}", str(y)) for n, y in enumerate(years)]
    runs = year_runs(members, capacity)
    keys = [k for r in runs for k in r.members]
    if runs:
        assert sorted(keys) == sorted(k for k, _y in members)
        assert len(runs) >= 2
        spans = [r.label.split(" to ") for r in runs]
        assert all(a[-1] < b[0] for a, b in zip(spans, spans[1:], strict=False))
        assert all(len(r.members) <= capacity or " to " not in r.label for r in runs)
