import os
from pathlib import Path

from django.core.checks import Warning, register


@register("database")
def database_not_in_tmp(app_configs, **kwargs):
    """/tmp is a tmpfs on many systems: a store kept there is gone after the next reboot."""
    chosen = os.environ.get("BESTIE_DB_PATH")
    if chosen and Path(chosen).resolve().parts[:2] == ("/", "tmp"):
        return [
            Warning(
                f"BESTIE_DB_PATH is under /tmp ({chosen}): the memory store may vanish at the next reboot.",
                hint="Point BESTIE_DB_PATH at a lasting place, or unset it to use var/bestie.sqlite3.",
                id="bestie.W001",
            )
        ]
    return []
