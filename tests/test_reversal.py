"""reversal.py: the two sides of a comparison or an ordering marker, swapped."""

from __future__ import annotations

import pytest

from research_assistant.check.polarity import conflict_of


@pytest.mark.parametrize(
    ("claim", "passage", "found"),
    [
        (
            "english text is translated into italian",
            "italian text is translated into english",
            "reversal: into: english vs italian",
        ),
        (
            "the decoder uses an lstm instead of an rnn",
            "the decoder uses an rnn instead of an lstm",
            "reversal: instead of: lstm vs rnn",
        ),
        (
            "generative models in contrast to discriminative ones need priors",
            "discriminative models in contrast to generative ones need priors",
            "reversal: in contrast to: generative vs discriminative",
        ),
        (
            "pretraining followed by finetuning works best",
            "finetuning followed by pretraining works best",
            "reversal: followed by: pretraining vs finetuning",
        ),
        (
            "sorting prior to merging",
            "merging prior to sorting",
            "reversal: prior to: sorting vs merging",
        ),
        # the same order
        ("english text is translated into italian", "english sentences go into italian", ""),
        # a marker on one side only: no order to compare
        ("english text is translated into italian", "italian text and english text", ""),
        # another marker: the orders are not comparable
        ("the lstm instead of the rnn", "the rnn followed by the lstm", ""),
        # "over" is no marker: "gains over" and "over 100" order nothing
        ("cbow gains over count", "count gains over cbow", ""),
    ],
)
def test_ordering_markers(claim: str, passage: str, found: str) -> None:
    assert conflict_of(claim, passage) == found
