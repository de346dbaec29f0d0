"""The erasure job: finish a forget that a reader held back (``memories.lifecycle.erasure``), every few
minutes until it is done. A run is kept in the job history only when there was one to finish."""

from dataclasses import dataclass

from governance.jobs import recorded
from memories import lifecycle
from memories.models import MemorySettings


@dataclass(frozen=True)
class ErasureResult:
    done: bool  # the WAL is truncated: nothing forgotten is left in either file


def finish_pending():
    """What the schedule calls. None when no erasure was pending."""
    if MemorySettings.load().erasure_pending_since is None:
        return None
    return _finish()


@recorded("erasure")
def _finish():
    return ErasureResult(done=lifecycle.finish_erasure())
