"""Numbers against ranges and grouped digits: a single number inside a range the paper gives is
not stated where the paper names another single number in its place ("convalg is between 1-4 ...
convalg=1 is the default"); "73,367.57" is one number."""

from __future__ import annotations

from research_assistant import Library, check_text
from research_assistant.agreement import within_a_range_only
from research_assistant.quantities import quantities


def test_a_number_inside_a_range_where_the_paper_names_another_is_not_stated() -> None:
    evidence = quantities(
        "The integer convalg is between 1-4 and determines the numerical convolution algorithm "
        "used. convalg=1 is the default and is recommended."
    )
    (four,) = quantities("convalg=4 is the default numerical convolution algorithm")
    assert within_a_range_only(four, evidence)
    (one,) = quantities("convalg=1 is the default numerical convolution algorithm")
    assert not within_a_range_only(one, evidence)
    # a claim naming both ends restates the range: "0 through 255"
    pixels = quantities("intensities (0 through 255) were rescaled to lie between 0 and 1")
    stated = quantities("the 8-bit intensity values (values 0 to 255) were normalized")
    assert not within_a_range_only(pixels[0], stated, pixels)


def test_a_default_inside_the_allowed_range_is_caught_on_the_corpus(
    claims_library: Library,
) -> None:
    claim = (
        "In TIMP, convalg=4 is the default algorithm for the numerical convolution "
        "[Mullen and van Stokkum, 2007]."
    )
    (c,) = check_text(claims_library, claim).citations
    assert c.status == "unsupported" and "says 1, not 4" in c.reason


def test_a_grouped_decimal_of_the_paper_is_one_value_on_the_corpus(
    claims_library: Library,
) -> None:
    """The paper prints "xB = 73,367.57": read as 73 and 367.57 before, so that a claim writing
    73367.57 was told "the paper says 759.76"."""
    claim = (
        "In their figure 3, the range shown goes from xB = {} to xB = 40759.76 "
        "[Rodriguez Montoya and Matos Chassin, 2009]."
    )
    (c,) = check_text(claims_library, claim.format("73367.57")).citations
    assert c.status == "verified", c.reason
    (c,) = check_text(claims_library, claim.format("73376.57")).citations
    assert c.status == "unsupported" and "says 73367.57, not 73376.57" in c.reason


def test_thousands_of_machines_is_no_thousand_on_the_corpus(claims_library: Library) -> None:
    """MapReduce "processes many terabytes of data on thousands of machines"."""
    claim = (
        "A typical MapReduce computation processes many terabytes of data on {} machines "
        "[Dean and Ghemawat, 2004]."
    )
    for amount in ("thousands of", "several thousand"):
        (c,) = check_text(claims_library, claim.format(amount)).citations
        assert c.status == "verified", (amount, c.reason)
    (c,) = check_text(claims_library, claim.format("1,000")).citations
    assert c.status == "unsupported"
