"""Test helpers for users of citeledger.

* :mod:`citeledger.testing.strategies`: Hypothesis strategies for identifiers, the model and
  realistic noisy citations of a paper (install the ``testing`` extra:
  ``pip install "citeledger[testing]"``). The ``hypothesis`` entry point also registers them, so
  ``st.from_type(Paper)`` works.

Nothing is imported here, so ``import citeledger.testing`` never needs Hypothesis.
"""
