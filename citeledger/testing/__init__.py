"""Test helpers for users of citeledger.

* :class:`ReplayTransport`: a :class:`~citeledger.sources._transport.Transport` answering from
  recorded responses (keyed by method, URL and the query parameters that matter), raising
  :class:`UnexpectedRequest` for anything else and keeping every request it saw.
* :class:`FakeSource`: an in-memory source built from papers, references, observations,
  notices and counts, implementing only the capability protocols it declares.
* :mod:`citeledger.testing.strategies`: Hypothesis strategies for identifiers, the model and
  realistic noisy citations of a paper (install the ``testing`` extra:
  ``pip install "citeledger[testing]"``). The ``hypothesis`` entry point also registers them, so
  ``st.from_type(Paper)`` works.

Importing ``citeledger.testing`` never needs Hypothesis (the strategies are not imported here).

.. versionchanged:: 0.2.0
   :class:`ReplayTransport` and :class:`FakeSource`.
"""

from citeledger.testing._fake import FakeSource
from citeledger.testing._replay import ReplayTransport, UnexpectedRequest

__all__ = ["FakeSource", "ReplayTransport", "UnexpectedRequest"]
