"""Where the visible corpus is: SYMSHAPE_SOURCE_DIR (the repo root; default two levels above
this file) / ../shared/corpus/visible."""
import os
from pathlib import Path

SOURCE_DIR = Path(os.environ.get("SYMSHAPE_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CORPUS = SOURCE_DIR / ".." / "shared" / "corpus" / "visible"


def corpus_graphs():
    return sorted(CORPUS.glob("*.graph.json"))
