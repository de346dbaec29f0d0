"""Use the SQLite library bundled with sqlean-py instead of the system one.

The system SQLite of Debian 12 (3.40) lacks FTS5 ``secure-delete`` (3.42+), without which a forgotten
memory's words stay readable in the full-text index until the next merge. sqlean-py ships a current
SQLite with the same DB-API as the standard module, so it replaces it before Django loads its backend.
"""

import sys

import sqlean

sys.modules["sqlite3"] = sqlean
sys.modules["sqlite3.dbapi2"] = sqlean.dbapi2
