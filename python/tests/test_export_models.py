"""Acceptance: torchvision models and hand-written transformer modules (none in
shared/corpus/visible) exported, executed in PyTorch at several sizes (odd, batch 1,
and sizes PyTorch rejects), and every node's shape, stride and dtype exact in the engine,
whose guards accept the valid sizes and reject the invalid ones."""
import pytest

torch = pytest.importorskip("torch")
tm = pytest.importorskip("torchvision.models")

import symshape  # noqa: E402
from models import CausalDecoder, MaskedEncoder, PatchEncoder  # noqa: E402

TORCHVISION = ["alexnet", "mobilenet_v2", "mobilenet_v3_large", "shufflenet_v2_x0_5", "squeezenet1_0", "resnet34",
               "mnasnet0_75", "regnet_x_400mf", "efficientnet_b1", "resnet50", "deeplabv3_mobilenet_v3_large"]


def _images(*sizes):
    g = torch.Generator().manual_seed(0)
    return [(torch.randn(*s, generator=g),) for s in sizes]


def _check(report, n_valid, n_invalid):
    """At least n_valid examples PyTorch runs and n_invalid it rejects, all correct."""
    assert report.ok, report.details()
    assert report.correct == len(report.examples), report.details()
    valid = [e for e in report.examples if e.pytorch_ok]
    invalid = [e for e in report.examples if not e.pytorch_ok]
    assert len(valid) >= n_valid and len(invalid) >= n_invalid, report.details()
    for e in valid:  # accepted, and every node compared exactly
        assert e.engine_accepted and e.nodes_checked > 0 and not e.node_diffs, report.details()
    for e in invalid:  # PyTorch rejects these sizes on shapes: so must the engine
        assert not e.engine_accepted, report.details()


@pytest.mark.parametrize("name", TORCHVISION)
def test_torchvision_model(name):
    torch.manual_seed(0)
    if name.startswith("deeplab"):
        model = tm.segmentation.deeplabv3_mobilenet_v3_large(num_classes=3, weights_backbone=None, aux_loss=False)
    else:
        model = getattr(tm, name)(num_classes=10)
    model.eval()
    # odd sizes, batch 1, a non-square image; then a wrong channel count PyTorch rejects
    examples = _images((2, 3, 64, 64), (1, 3, 67, 71), (3, 3, 97, 64), (1, 3, 33, 33), (2, 4, 64, 64))
    report = symshape.verify(model, examples)
    _check(report, 3, 1)  # 33x33 is too small for some (alexnet): PyTorch rejects it, and so must the engine
    assert str(report).startswith("conform: graphs=1 examples=5 correct=5 mismatch=0 rejected=0 unsound=0")


def test_causal_decoder_with_bounded_seq():
    torch.manual_seed(0)
    model = CausalDecoder(max_len=16).eval()
    ids = [(torch.randint(0, 50, s),) for s in ((2, 7), (1, 1), (3, 16), (1, 9))]
    ids.append((torch.randint(0, 50, (1, 17)),))  # longer than the position table
    spec = {"input_ids": {0: symshape.Dim("batch"), 1: symshape.Dim("seq", max=16)}}
    report = symshape.verify(model, ids, dynamic_shapes=spec)
    _check(report, 4, 1)


def test_masked_encoder_rejects_mismatched_mask():
    torch.manual_seed(0)
    model = MaskedEncoder().eval()
    examples = [(torch.randn(2, 5, 24), torch.ones(2, 5)), (torch.randn(1, 1, 24), torch.ones(1, 1)),
                (torch.randn(3, 9, 24), torch.ones(3, 9)),
                (torch.randn(2, 5, 24), torch.ones(2, 6)),   # mask longer than the sequence
                (torch.randn(2, 5, 25), torch.ones(2, 5))]   # wrong hidden size
    _check(symshape.verify(model, examples), 3, 2)


def test_patch_encoder():
    torch.manual_seed(0)
    model = PatchEncoder().eval()
    examples = _images((2, 3, 16, 16), (1, 3, 9, 13), (3, 3, 4, 4), (1, 3, 3, 8), (2, 2, 16, 16))
    _check(symshape.verify(model, examples), 3, 2)
