"""The one author matcher: one parser, one comparison, two documented policies."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citeledger as cl
from citeledger.resolve.names import (
    PersonMatch,
    Strictness,
    family_names_agree,
    name_key,
    names_agree,
    same_person,
)

INITIALS, FULL_NAMES = Strictness.INITIALS, Strictness.FULL_NAMES


@pytest.mark.parametrize(
    ("a", "b", "initials", "full_names"),
    [
        # "Y. He" twice over: a reference cannot tell them apart, a paper's author list can.
        (("He", "Yang"), ("He", "Yuxiong"), True, False),
        (("He", "Y."), ("He", "Yuxiong"), True, True),
        (("Rajbhandari", "SA"), ("Rajbhandari", "Samyam A."), True, True),
        (("Smith", "J. R."), ("Smith", "John Robert"), True, True),
        (("He", "Yu-Xiong"), ("He", "Yuxiong"), True, True),
        # Noise a reference carries: a misread family name, a name order confused.
        (("Rajbhandari", "S."), ("Rajbhandary", "S."), True, False),
        (("Wei", "Li"), ("Li", "Wei"), True, False),
        (("Smith", "John"), ("Jones", "John"), False, False),
    ],
)
def test_the_two_policies_differ_only_in_what_the_names_must_say(
    a: tuple[str, str], b: tuple[str, str], initials: bool, full_names: bool
) -> None:
    ka = name_key(cl.Author(family=a[0], given=a[1]))
    kb = name_key(cl.Author(family=b[0], given=b[1]))
    assert ka is not None
    assert kb is not None
    assert names_agree(ka, kb, strictness=INITIALS) is initials
    assert names_agree(ka, kb, strictness=FULL_NAMES) is full_names
    # The resolver's hot path calls the INITIALS rule directly: it is the same rule.
    assert family_names_agree(ka, kb) is initials


def test_orcid_decides_under_either_policy() -> None:
    one = cl.Author(family="He", given="Yuxiong", orcid="0000-0002-1825-0097")
    other = cl.Author(family="He", given="Yuxiong", orcid="0000-0001-5109-3700")
    renamed = cl.Author(family="Ho", given="Yu-Hsiung", orcid="0000-0002-1825-0097")
    for strictness in Strictness:
        assert same_person(one, other, strictness=strictness) is None
        assert same_person(one, renamed, strictness=strictness) is PersonMatch.ORCID


def test_placeholders_and_groups_under_either_policy() -> None:
    assert name_key(cl.Author(raw="Anonymous")) is None
    atlas, the_atlas, cms = (
        cl.Author(raw=name)
        for name in ("ATLAS Collaboration", "The ATLAS Collaboration", "The CMS Collaboration")
    )
    for strictness in Strictness:
        assert same_person(atlas, the_atlas, strictness=strictness) is not None
        assert same_person(the_atlas, cms, strictness=strictness) is None


_NAMES = st.sampled_from(["He", "Y.", "Yang", "Yuxiong", "Yu-Xiong", "SA", "Samyam", "J. R.", "Li"])


@given(_NAMES, _NAMES, _NAMES, _NAMES)
def test_full_names_never_accepts_what_initials_refuses(fa: str, ga: str, fb: str, gb: str) -> None:
    ka = name_key(cl.Author(family=fa, given=ga))
    kb = name_key(cl.Author(family=fb, given=gb))
    assert ka is not None
    assert kb is not None
    if names_agree(ka, kb, strictness=FULL_NAMES):
        assert names_agree(ka, kb, strictness=INITIALS)
    assert names_agree(ka, kb, strictness=FULL_NAMES) is names_agree(kb, ka, strictness=FULL_NAMES)


@pytest.mark.parametrize(
    ("raw", "other", "same"),
    [
        ("Rajbhandari, Samyam", cl.Author(family="Rajbhandari", given="Samyam"), True),
        ("Rajbhandari SA", cl.Author(family="Rajbhandari", given="Samyam A."), True),
        ("Samyam Rajbhandari", cl.Author(family="Rajbhandari", given="Samyam"), True),
        ("Yang He", cl.Author(family="He", given="Yuxiong"), False),
        ("He, Yang", cl.Author(family="He", given="Yuxiong"), False),
    ],
)
def test_full_names_read_a_display_name_by_the_author_grammar(
    raw: str, other: cl.Author, same: bool
) -> None:
    # Self-citation: a name given only as one display string (Crossref's organisation names,
    # JATS/TEI collabs, some sources' authors) in any order the author grammar reads.
    assert (same_person(cl.Author(raw=raw), other) is not None) is same
    assert (same_person(other, cl.Author(raw=raw)) is not None) is same
