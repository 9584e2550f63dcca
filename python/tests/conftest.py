import os
import sys

import pytest

SOURCE_DIR = os.environ.get("SYMSHAPE_SOURCE_DIR", os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..")))
SHARED = os.path.join(SOURCE_DIR, "..", "shared")
sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture
def visible_corpus():
    path = os.path.join(SHARED, "corpus", "visible")
    if not os.path.isdir(path):
        pytest.skip("shared/corpus/visible not present")
    return path


@pytest.fixture
def sample_graph():
    return os.path.join(SOURCE_DIR, "data", "samples", "resnet18.graph.json")
