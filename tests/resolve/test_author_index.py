"""The indexed author comparison (issue 16) decides exactly as the pairwise rule.

``compare_authors`` with a candidate's :func:`author_index`, and with the reference's
:func:`family_closeness` against several candidates at once, must give the outcome of testing
``_same_person`` pair by pair, for any lists of names: equal, misspelt, swapped, compound, group
and one-letter names included.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import citeledger as cl
from citeledger.model import Agreement
from citeledger.resolve import names
from citeledger.resolve.names import NameKey, name_keys
from citeledger.resolve.names import family_names_agree as _same_person
from citeledger.resolve.scoring import (
    author_index,
    compare_authors,
    family_closeness,
)

# Names chosen to exercise every clause of the rule: equal families, fuzzily equal ones
# ("Smith"/"Smyth", "Nguyen"/"Ngyuen"), a family among the other's tokens ("Li Wei"/"Wei Li"),
# compound names ("van der Berg"), group authors, short and one-letter names.
_FAMILIES = [
    "Smith",
    "Smyth",
    "Smithe",
    "Nguyen",
    "Ngyuen",
    "Li",
    "Wei",
    "van der Berg",
    "Berg",
    "O'Neil",
    "ONeil",
    "X",
    "Garcia Marquez",
    "Marquez",
    "ATLAS Collaboration",
    "CMS Collaboration",
]
_GIVEN = [None, "A", "Wei", "Li", "Jean Paul", "Maria", "B. C."]


@st.composite
def _authors(draw: st.DrawFn) -> tuple[NameKey, ...]:
    people = draw(
        st.lists(
            st.tuples(st.sampled_from(_FAMILIES), st.sampled_from(_GIVEN)), min_size=0, max_size=6
        )
    )
    return name_keys([cl.Author(family=f, given=g) for f, g in people])


def _pairwise(left: tuple[NameKey, ...], right: tuple[NameKey, ...]) -> tuple[int, bool]:
    # The rule as stated: how many left names have a same person on the right, and whether the
    # first has one with a compatible initial.
    matched = sum(any(_same_person(a, b) for b in right) for a in left)
    return matched, bool(left) and any(_same_person(left[0], b) for b in right)


@given(left=_authors(), right=_authors())
@settings(max_examples=400, deadline=None)
def test_indexed_comparison_equals_the_pairwise_rule(
    left: tuple[NameKey, ...], right: tuple[NameKey, ...]
) -> None:
    plain = compare_authors(left, right)
    index = author_index(right)
    close = family_closeness(left, [index])
    assert compare_authors(left, right, index=index, close=close) == plain
    if left and right:
        matched, _ = _pairwise(left, right)
        assert plain[1] == 100.0 * matched / len(left)


@given(left=_authors(), rights=st.lists(_authors(), min_size=1, max_size=6))
@settings(max_examples=300, deadline=None)
def test_closeness_for_many_candidates_equals_the_pairwise_rule(
    left: tuple[NameKey, ...], rights: list[tuple[NameKey, ...]]
) -> None:
    indexes = [author_index(r) for r in rights]
    close = family_closeness(left, indexes)
    assert len(close) == len(left)
    for right, index in zip(rights, indexes, strict=True):
        assert compare_authors(left, right, index=index, close=close) == compare_authors(
            left, right
        )


def test_fuzzy_family_names_are_found_through_the_batch() -> None:
    # "Smyth" is "Smith" only by the fuzzy clause (no shared token, different families).
    left = name_keys([cl.Author(family="Smyth", given="A")])
    right = name_keys([cl.Author(family="Smith", given="A")])
    other = name_keys([cl.Author(family="Tanaka", given="A")])
    close = family_closeness(left, [author_index(right), author_index(other)])
    assert close == (frozenset({"smith"}),)
    assert compare_authors(left, right, index=author_index(right), close=close)[0] is (
        Agreement.AGREE
    )
    assert compare_authors(left, other, index=author_index(other), close=close)[0] is (
        Agreement.DISAGREE
    )


_NAME_PARTS = st.one_of(
    st.sampled_from(
        [
            "Smith",
            "van der Berg",
            "N/A",
            "Anonymous",
            "The Editors",
            "ATLAS Collaboration",
            "Group",
            "Na",
            "SA",
            "S. A.",
            "J.-P.",
            "ABCDE",
            "A B",
            "Jean Paul",
            "É.",
            "--",
        ]
    ),
    st.text(alphabet="abcAB .-'É/", max_size=12),
)


@given(family=_NAME_PARTS, given=st.one_of(st.none(), _NAME_PARTS))
@settings(max_examples=500, deadline=None)
def test_name_keys_from_cached_parts_equal_the_rule(family: str, given: str | None) -> None:
    if not family:
        return
    assert names._name_key_of.__wrapped__(family, given, None) == names._name_key_general(
        family, given, None
    )
