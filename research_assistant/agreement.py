"""Whether two numbers state the same value (pure): the comparison half of the number reader
(``quantities`` reads, this compares). A claim's number agrees with the evidence's within the
precision the claim was written to, in a compatible unit; "the evidence's number in the same
role" (``counterpart``) is what an explanation names when they differ."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

from research_assistant.quantities import Quantity

__all__ = ["agree", "agrees_any", "counterpart", "within_a_range_only"]


def _slack(q: Quantity) -> float:
    """Half a unit of the last digit written; "about 2,000" is precise to the thousand only."""
    return _approx_slack(q.text, q.tol) if q.approx else q.tol


@functools.lru_cache(maxsize=20_000)
def _approx_slack(text: str, tol: float) -> float:  # cached: agree() runs per number pair
    digits = text.split()[0].replace(",", "").partition(".")[0].lstrip("+-")
    zeros = len(digits) - len(digits.rstrip("0")) if digits.isdigit() and digits != "0" else 0
    return max(tol, 0.5 * 10**zeros * (tol / 0.5 if tol else 1.0))


_WIDE = 4.0  # a range wider than this factor ("range of 5000-100,000") states no value inside


def _close(a: float, b: float, slack: float) -> bool:
    return abs(a - b) < slack + 1e-9 * max(abs(a), abs(b), 1.0)


def _share_like(q: Quantity) -> bool:
    """A share to three digits or more ("0.807"), which a table may print in percent unsigned
    (80.7); fewer digits ("0.5") could match a count by chance."""
    return not q.unit and q.text.startswith("0.") and len(q.text[2:].lstrip("0")) >= 3


def agree(claim: Quantity, evidence: Quantity) -> bool:
    """Whether the evidence states the claim's value, within the precision the claim was written
    to: "about 2" agrees with 1.71, but 1.71 does not agree with "two"."""
    if claim.unit and evidence.unit and claim.unit != evidence.unit:
        return False
    if claim.bound and evidence.bound and claim.bound != evidence.bound:
        return False  # "H > 23" is not "H < 23", "at least 10" not "at most 10"
    slack = _slack(claim)
    values = [evidence.value]
    if claim.unit == "%" and not evidence.unit:
        values.append(evidence.value * 100)  # "50%" and "0.5"
    elif evidence.unit == "%" and not claim.unit:
        values.append(evidence.value / 100)
    elif not evidence.unit and _share_like(claim):
        values.append(evidence.value / 100)  # "0.807" for a table's 80.7 (a column in %)
    elif claim.role & evidence.role and bool(claim.unit) != bool(evidence.unit):
        # one side bare, in the same role: "ran for 18 months" and "Duration (months): 18",
        # "after 10^9 years" and "10^9 y" (a unit the reader does not know)
        if claim.unit:
            values.append(evidence.value * claim.scale + claim.offset)
        else:
            values.append((evidence.value - evidence.offset) / evidence.scale)
    if claim.low < claim.high:  # a range agrees with the same range only, and a vague amount
        # ("several thousand users", about 2,000 to 9,000) with a value inside it too
        if claim.approx and evidence.low == evidence.high:
            return any(claim.low <= v <= claim.high for v in values)
        if claim.approx and evidence.approx:  # "several thousand" and "thousands"
            inner, outer = sorted((claim, evidence), key=lambda q: q.high - q.low)
            return outer.low <= inner.low and inner.high <= outer.high
        return _close(claim.low, evidence.low, slack) and _close(claim.high, evidence.high, slack)
    # a vague amount's ends are no values it states ("thousands": not 1,000)
    vague = evidence.approx and evidence.low < evidence.high
    for v in values:
        if not vague and _close(claim.value, v, slack):
            return True
        if (
            evidence.low < evidence.high
            and evidence.low - slack < claim.value < evidence.high + slack
            and (evidence.low <= 0 or evidence.high <= _WIDE * evidence.low)
        ):
            return True
        if claim.bound == ">" and v >= claim.value - slack:
            return True
        if claim.bound == "<" and v <= claim.value + slack:
            return True
    return False


def agrees_any(claim: Quantity, evidence: Sequence[Quantity]) -> bool:
    """Whether any evidence number agrees with the claim's (``agree``), with the common case (a
    plain number against plain numbers) compared in one loop: the checker asks this for every
    claim number against every number of a window, thousands of pairs a check."""
    if claim.low < claim.high or claim.bound or claim.unit == "%" or _share_like(claim):
        return any(agree(claim, e) for e in evidence)
    v, unit, slack = claim.value, claim.unit, _slack(claim)
    # ``_close`` unrolled: its bound, slack + 1e-9 * max(|v|, |e|, 1), is the larger of the
    # claim's part (computed once) and the evidence's (computed only when the first fails)
    near = slack + 1e-9 * max(abs(v), 1.0)
    scaled = claim.scale != 1.0 or claim.offset != 0.0
    for e in evidence:
        if e.low == e.high and e.unit != "%":
            if unit and e.unit and unit != e.unit:
                continue
            d = abs(v - e.value)
            if d < near or d < slack + 1e-9 * abs(e.value):
                return True
            # one side in a unit, the other bare in the same role: as written (``agree``)
            if (
                unit != e.unit
                and (scaled if unit else (e.scale != 1.0 or e.offset != 0.0))
                and claim.role & e.role
            ):
                w = e.value * claim.scale + claim.offset if unit else (e.value - e.offset) / e.scale
                if abs(v - w) < slack + 1e-9 * max(abs(v), abs(w), 1.0):
                    return True
        elif agree(claim, e):
            return True
    return False


def counterpart(claim: Quantity, evidence: tuple[Quantity, ...]) -> Quantity | None:
    """The evidence number that stands where the claim's number stands: the same unit written
    out ("634 secs" for "734 seconds", not the "August 2004" beside it), most shared
    neighbouring words, then the nearest value."""
    same = [e for e in evidence if not claim.unit or not e.unit or e.unit == claim.unit]
    if not same:
        return None
    return max(
        same,
        key=lambda e: (
            bool(claim.unit) and e.unit == claim.unit,
            len(claim.role & e.role),
            e.unit == claim.unit,
            -abs(math.log10(abs(e.value) + 1e-12) - math.log10(abs(claim.value) + 1e-12)),
        ),
    )


def within_a_range_only(
    claim: Quantity, evidence: Sequence[Quantity], stated: Sequence[Quantity] = ()
) -> bool:
    """Whether the claim's single number agrees with the evidence only by falling inside one of
    its ranges, while the evidence states another single number where the claim's stands:
    "convalg is between 1-4 ... convalg=1 is the default" does not say that 4 is the default
    (a range of allowed values, then the one chosen). A claim that names both ends of the range
    among its numbers (``stated``: "0 through 255") restates the range."""
    if claim.low < claim.high or all(e.low == e.high for e in evidence):
        return False  # most windows state no range
    single = [e for e in evidence if e.low == e.high]
    if any(agree(claim, e) for e in single):
        return False
    rivals = [e for e in single if e.role & claim.role and (not claim.unit or e.unit == claim.unit)]
    ranges = [e for e in evidence if e.low < e.high and agree(claim, e)]
    values = {q.value for q in stated if q.low == q.high}
    if any(r.low in values and r.high in values for r in ranges):
        return False
    return bool(rivals and ranges) and not any(r.role & claim.role for r in ranges)
