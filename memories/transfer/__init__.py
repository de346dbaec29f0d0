"""The export document (SPEC §10): every memory and the audit history as JSON, and its import.

- ``document``: the document's format and the fields of its records;
- ``export``: writing it, streamed;
- ``importing``: reading one back, checked whole before anything is written;
- ``formats`` and ``foreign``: other tools' memories (mem0, OpenMemory, ChatGPT, JSON Lines, CSV), read
  whole, then each through the write path as a proposal.
"""

from memories.transfer.document import (
    FORMAT,
    HISTORY_FIELDS,
    MEMORY_FIELDS,
    VERSION,
    history_dict,
    memory_dict,
)
from memories.transfer.export import (
    ExportResult,
    database_rows,
    iter_export,
    write_export,
)
from memories.transfer.foreign import FORMATS, ForeignImport, InvalidImport, import_foreign
from memories.transfer.importing import ImportResult, InvalidDocument, import_document

__all__ = [
    "FORMAT",
    "FORMATS",
    "HISTORY_FIELDS",
    "MEMORY_FIELDS",
    "VERSION",
    "ExportResult",
    "ForeignImport",
    "ImportResult",
    "InvalidDocument",
    "InvalidImport",
    "database_rows",
    "history_dict",
    "import_document",
    "import_foreign",
    "iter_export",
    "memory_dict",
    "write_export",
]
