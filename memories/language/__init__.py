"""The language of texts: the lowest layer, on which screening, the write path, retrieval and the doctor
all stand. It knows nothing of the database.

- ``folding``: one form for case and diacritics ("Đà Nẵng" -> "da nang");
- ``words``: splitting, the words that carry nothing, and the stems;
- ``meaning``: the same memory, the same fact, a contradiction.
"""
