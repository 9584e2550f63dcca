"""Model lists of the corpus builder (symshape.corpus_build): per library, the sorted names
it can build and, per name, a Case: a zero-argument factory of the nn.Module (random
weights, nothing downloaded), the example inputs (typical, odd, batch 1, and sizes PyTorch
rejects) and the dynamic_shapes specs to try in order (named Dims first, Dim.AUTO after).

Every module returned takes tensors positionally under fixed names and returns a tuple of
tensors (ModelOutputs, dicts and lists flattened, None and caches dropped), so that
torch.export's dynamic_shapes keys and fx-graph-json's inputs are the same names."""
import functools
from dataclasses import dataclass, field

import torch
from torch import nn

LIBRARIES = ("timm", "transformers", "torchvision", "torch_geometric")


@dataclass
class Case:
    factory: object            # () -> nn.Module
    examples: list             # list of input tuples
    specs: list                # dynamic_shapes candidates, tried in order
    kind: str = ""             # image / text / seq2seq / audio / video / graph
    notes: dict = field(default_factory=dict)


def _auto():
    return torch.export.Dim.AUTO


def _dim(name, **kw):
    return torch.export.Dim(name, **kw)


def _gen(seed):
    return torch.Generator().manual_seed(seed)


def flatten_tensors(out):
    if isinstance(out, torch.Tensor):
        return (out,)
    if hasattr(out, "to_tuple") and hasattr(out, "keys"):  # transformers ModelOutput
        out = tuple(out[k] for k in out.keys())
    if isinstance(out, dict):
        out = tuple(out[k] for k in out)
    if isinstance(out, (list, tuple)):
        return tuple(t for o in out for t in flatten_tensors(o))
    return ()


class One(nn.Module):
    """x -> the model's tensors; `key` passes x by keyword (pixel_values=x)."""

    def __init__(self, model, key=None):
        super().__init__()
        self.m, self.key = model, key

    def forward(self, x):
        return flatten_tensors(self.m(**{self.key: x}) if self.key else self.m(x))


class Text(nn.Module):
    def __init__(self, model, mask=True):
        super().__init__()
        self.m, self.mask = model, mask

    def forward(self, input_ids, attention_mask):
        if self.mask:
            return flatten_tensors(self.m(input_ids=input_ids, attention_mask=attention_mask))
        return flatten_tensors(self.m(input_ids=input_ids))


class Seq2Seq(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.m = model

    def forward(self, input_ids, attention_mask, decoder_input_ids):
        return flatten_tensors(self.m(input_ids=input_ids, attention_mask=attention_mask,
                                      decoder_input_ids=decoder_input_ids, use_cache=False))


class Graph(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.m = model

    def forward(self, x, edge_index):
        return flatten_tensors(self.m(x, edge_index))


# ------------------------------------------------------------------------------ image inputs

def image_examples(size, fixed, channels=3, seed=0):
    """typical, batch 1 (odd sizes unless fixed), batch 3/5, and two PyTorch rejects: a wrong
    channel count, and (fixed) a different resolution / (dynamic) a tiny image."""
    h, w = (size, size) if isinstance(size, int) else size
    if fixed:
        shapes = [(2, channels, h, w), (1, channels, h, w), (5, channels, h, w), (2, channels, h + 16, w + 16),
                  (2, channels + 1, h, w)]
    else:
        shapes = [(2, channels, h, w), (1, channels, h + 3, w + 9), (3, channels, h + 32, w + 16),
                  (5, channels, h, w), (2, channels, 8, 8), (2, channels + 1, h, w)]
    g = _gen(seed)
    return [(torch.randn(*s, generator=g),) for s in shapes]


def image_specs(fixed):
    if fixed:
        return [{"x": {0: _dim("batch")}}, {"x": {0: _auto()}}]
    return [{"x": {0: _dim("batch"), 2: _auto(), 3: _auto()}}, {"x": {0: _auto(), 2: _auto(), 3: _auto()}}]


# -------------------------------------------------------------------------------------- timm

def timm_names():
    import timm
    return sorted(timm.list_models())


def timm_case(name):
    import timm
    cfg = timm.models.get_pretrained_cfg(name)
    cfg = cfg.to_dict() if cfg is not None and hasattr(cfg, "to_dict") else (cfg or {})
    fixed = bool(cfg.get("fixed_input_size", False))
    size = tuple(cfg.get("input_size", (3, 224, 224))[1:])
    channels = cfg.get("input_size", (3,))[0]
    state = {}

    def factory():
        # a smaller resolution where the constructor takes one, else the model's own
        try:
            m = timm.create_model(name, pretrained=False, num_classes=10, img_size=64)
            state["size"] = 64
        except Exception:  # noqa: BLE001 - the constructor has no img_size or cannot use 64
            m = timm.create_model(name, pretrained=False, num_classes=10)
        return One(m)

    def examples():
        s = state.get("size", 64 if not fixed else size)
        return image_examples(s, fixed, channels)

    return Case(factory, examples, image_specs(fixed), "image", {"fixed_input_size": fixed,
                                                                 "default_size": list(size)})


# ------------------------------------------------------------------------------ torchvision

_TV_VIDEO = None


def torchvision_names():
    import torchvision.models as tvm
    global _TV_VIDEO
    _TV_VIDEO = set(tvm.list_models(module=tvm.video))
    names = set(tvm.list_models(module=tvm)) | set(tvm.list_models(module=tvm.segmentation)) | _TV_VIDEO
    return sorted(names)


def torchvision_case(name):
    import torchvision.models as tvm
    video = name in set(tvm.list_models(module=tvm.video))
    kw = {"weights": None, "num_classes": 10}
    if name in set(tvm.list_models(module=tvm.segmentation)):
        kw["weights_backbone"] = None  # their default downloads ImageNet backbone weights
    if name.startswith("vit_"):
        kw["image_size"] = 64 if name.endswith("16") or name.endswith("32") else 56
    if name in ("inception_v3", "googlenet"):
        kw["aux_logits"] = False
        kw["init_weights"] = True
    fixed = name.startswith(("vit_", "maxvit", "mvit"))
    if name.startswith("maxvit"):
        size = 224
    elif name.startswith("vit_"):
        size = kw["image_size"]
    elif name == "inception_v3":
        size = 96
    else:
        size = 64

    def factory():
        return One(tvm.get_model(name, **kw))

    if video:
        t, hw = (16, 224) if name.startswith("mvit") else (4, 32)
        g = _gen(0)
        shapes = [(2, 3, t, hw, hw), (1, 3, t, hw, hw), (3, 3, t, hw, hw), (2, 4, t, hw, hw)]
        if not fixed:
            shapes[1] = (1, 3, t + 1, hw + 8, hw + 16)
        exs = [(torch.randn(*s, generator=g),) for s in shapes]
        specs = ([{"x": {0: _dim("batch")}}, {"x": {0: _auto()}}] if fixed else
                 [{"x": {0: _dim("batch"), 2: _auto(), 3: _auto(), 4: _auto()}},
                  {"x": {0: _auto(), 2: _auto(), 3: _auto(), 4: _auto()}}])
        return Case(factory, exs, specs, "video")
    return Case(factory, image_examples(size, fixed), image_specs(fixed), "image")


# ----------------------------------------------------------------------------- transformers

_SMALL = dict(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
              intermediate_size=64, vocab_size=99, max_position_embeddings=128, d_model=32, encoder_layers=1,
              decoder_layers=1, encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64,
              decoder_ffn_dim=64, num_layers=2, num_decoder_layers=1, num_heads=4, d_ff=64, d_kv=8, n_embd=32,
              n_layer=2, n_head=4, n_positions=128, embedding_size=32, ffn_dim=64, dim=32, n_layers=2, n_heads=4,
              hidden_dim=64, head_dim=8, num_experts=4, num_local_experts=4, num_experts_per_tok=2,
              moe_intermediate_size=32, shared_expert_intermediate_size=32, image_size=32, patch_size=8,
              projection_dim=32, embed_dim=32, word_embed_proj_dim=32, num_mel_bins=16,
              max_source_positions=64, max_target_positions=64)
_TOKENS = dict(pad_token_id=0, bos_token_id=1, eos_token_id=2, decoder_start_token_id=0, sep_token_id=2,
               cls_token_id=1, mask_token_id=3, unk_token_id=3)


def _shrink(cfg, depth=0):
    from transformers import PretrainedConfig
    for k, v in _SMALL.items():
        if hasattr(cfg, k) and isinstance(getattr(cfg, k), int) and not isinstance(getattr(cfg, k), bool):
            setattr(cfg, k, v)
    for k, v in _TOKENS.items():
        if getattr(cfg, k, None) is not None and isinstance(getattr(cfg, k), int):
            setattr(cfg, k, v)
    for k in ("use_cache", "return_dict_in_generate"):
        if hasattr(cfg, k):
            setattr(cfg, k, False)
    cfg._attn_implementation = "eager"
    if depth < 3:
        for k in sorted(vars(cfg)):
            v = getattr(cfg, k, None)
            if isinstance(v, PretrainedConfig):
                _shrink(v, depth + 1)
    return cfg


def _tf_maps():
    from transformers.models.auto import configuration_auto, modeling_auto
    return configuration_auto.CONFIG_MAPPING_NAMES, modeling_auto.MODEL_MAPPING_NAMES


# Task heads that take the inputs the builder makes (token ids, images, waveforms): each head
# class is an architecture of its own (the `architectures` of a transformers config).
_TF_HEADS = ("CAUSAL_LM", "MASKED_LM", "SEQUENCE_CLASSIFICATION", "TOKEN_CLASSIFICATION", "QUESTION_ANSWERING",
             "SEQ_TO_SEQ_CAUSAL_LM", "NEXT_SENTENCE_PREDICTION", "PRETRAINING", "IMAGE_CLASSIFICATION",
             "SEMANTIC_SEGMENTATION", "DEPTH_ESTIMATION", "MASKED_IMAGE_MODELING", "AUDIO_CLASSIFICATION",
             "AUDIO_FRAME_CLASSIFICATION", "CTC", "AUDIO_XVECTOR")


@functools.cache
def _tf_classes():
    """{architecture: (model_type, class name)}: every base model under its model_type (lower
    case), every task head of _TF_HEADS under its class name, when transformers has the class
    and the config."""
    import transformers
    from transformers.models.auto import modeling_auto
    cfgs, models = _tf_maps()
    out = {}

    def add(key, t, cls):
        cls = cls[0] if isinstance(cls, (list, tuple)) else cls
        if t in cfgs and hasattr(transformers, cls) and hasattr(transformers, cfgs[t]):
            out.setdefault(key, (t, cls))

    for t in sorted(models):
        add(t, t, models[t])
    base = {v for v in out.values()}
    for head in _TF_HEADS:
        for t, cls in sorted(getattr(modeling_auto, f"MODEL_FOR_{head}_MAPPING_NAMES").items()):
            cls = cls[0] if isinstance(cls, (list, tuple)) else cls
            if (t, cls) not in base:
                add(cls, t, cls)
    return out


def transformers_names():
    return sorted(_tf_classes())


def _text_examples(max_pos, vocab=99):
    exs = []
    for i, (b, s) in enumerate(((2, 7), (1, 5), (3, 12), (2, 1), (2, max_pos + 40))):
        g = _gen(i)
        mask = torch.ones(b, s, dtype=torch.long)
        mask[0, max(1, s - 2):] = 0
        exs.append((torch.randint(3, vocab, (b, s), generator=g), mask))
    return exs


def transformers_case(name):
    import inspect

    import transformers
    cfgs, _ = _tf_maps()
    model_type, cls_name = _tf_classes()[name]
    model_cls = getattr(transformers, cls_name)
    cfg = _shrink(getattr(transformers, cfgs[model_type])())
    main = getattr(model_cls, "main_input_name", "input_ids")
    params = inspect.signature(model_cls.forward).parameters
    mp = getattr(cfg, "max_position_embeddings", None) or 128

    def base():
        return model_cls(cfg)

    if main == "input_ids" and getattr(cfg, "is_encoder_decoder", False):
        g = _gen(0)
        exs = []
        for b, s, t in ((2, 7, 4), (1, 5, 1), (3, 9, 6), (2, 3, 2), (2, mp + 40, 3)):
            exs.append((torch.randint(3, 99, (b, s), generator=g), torch.ones(b, s, dtype=torch.long),
                        torch.randint(3, 99, (b, t), generator=g)))
        specs = [{"input_ids": {0: _dim("batch"), 1: _auto()}, "attention_mask": {0: _dim("batch"), 1: _auto()},
                  "decoder_input_ids": {0: _dim("batch"), 1: _dim("tgt")}},
                 {"input_ids": {0: _auto(), 1: _auto()}, "attention_mask": {0: _auto(), 1: _auto()},
                  "decoder_input_ids": {0: _auto(), 1: _auto()}}]
        return Case(lambda: Seq2Seq(base()), exs, specs, "seq2seq", {"class": cls_name})
    if main == "input_ids":
        mask = "attention_mask" in params
        specs = [{"input_ids": {0: _dim("batch"), 1: _auto()}, "attention_mask": {0: _dim("batch"), 1: _auto()}},
                 {"input_ids": {0: _auto(), 1: _auto()}, "attention_mask": {0: _auto(), 1: _auto()}}]
        return Case(lambda: Text(base(), mask), _text_examples(mp), specs, "text", {"class": cls_name})
    if main == "pixel_values":
        size = getattr(cfg, "image_size", 32)
        size = size if isinstance(size, int) else tuple(size)[:2]
        ch = getattr(cfg, "num_channels", 3)
        fixed = hasattr(cfg, "patch_size")
        return Case(lambda: One(base(), "pixel_values"), image_examples(size, fixed, ch), image_specs(fixed),
                    "image", {"class": cls_name})
    if main == "input_values":
        g = _gen(0)
        exs = [(torch.randn(b, t, generator=g),) for b, t in ((2, 400), (1, 333), (3, 517), (2, 4))]
        return Case(lambda: One(base(), "input_values"), exs,
                    [{"x": {0: _dim("batch"), 1: _auto()}}, {"x": {0: _auto(), 1: _auto()}}], "audio",
                    {"class": cls_name})
    raise NotImplementedError(f"{cls_name}: main input '{main}' has no example builder in the corpus builder")


# -------------------------------------------------------------------------- torch_geometric

def _pyg_convs():
    import torch_geometric.nn as gnn
    from torch_geometric.nn import MLP

    def two(conv, heads=1, **kw):
        return lambda: (getattr(gnn, conv)(8, 16, heads=heads, **kw), getattr(gnn, conv)(16 * heads, 16, **kw)) \
            if heads > 1 else (getattr(gnn, conv)(8, 16, **kw), getattr(gnn, conv)(16, 16, **kw))
    return {
        "GCNConv": two("GCNConv", add_self_loops=False),
        "GCNConv-self_loops": two("GCNConv"),
        "GATConv": two("GATConv", heads=2, add_self_loops=False),
        "GATv2Conv": two("GATv2Conv", heads=2, add_self_loops=False),
        "SAGEConv": two("SAGEConv"),
        "GraphConv": two("GraphConv"),
        "ChebConv": two("ChebConv", K=2),
        "TAGConv": two("TAGConv", K=2),
        "SGConv": two("SGConv", K=2, add_self_loops=False),
        "TransformerConv": two("TransformerConv", heads=2),
        "ResGatedGraphConv": two("ResGatedGraphConv"),
        "LEConv": two("LEConv"),
        "GENConv": two("GENConv"),
        "ClusterGCNConv": two("ClusterGCNConv"),
        "FeaStConv": two("FeaStConv", add_self_loops=False),
        "MFConv": two("MFConv"),
        "GeneralConv": two("GeneralConv"),
        "FiLMConv": two("FiLMConv"),
        "ARMAConv": two("ARMAConv"),
        "GINConv": lambda: (gnn.GINConv(MLP([8, 16, 16])), gnn.GINConv(MLP([16, 16, 16]))),
        "EdgeConv": lambda: (gnn.EdgeConv(MLP([16, 16, 16])), gnn.EdgeConv(MLP([32, 16, 16]))),
    }


def _pyg_models():
    import torch_geometric.nn.models as pm
    base = dict(in_channels=8, hidden_channels=16, num_layers=2, out_channels=3)
    return {
        "GCN": lambda: pm.GCN(**base),
        "GCN-no_self_loops": lambda: pm.GCN(**base, add_self_loops=False),
        "GAT": lambda: pm.GAT(**base, heads=2),
        "GAT-no_self_loops": lambda: pm.GAT(**base, heads=2, add_self_loops=False),
        "GraphSAGE": lambda: pm.GraphSAGE(**base),
        "GIN": lambda: pm.GIN(**base),
        "EdgeCNN": lambda: pm.EdgeCNN(**base),
        "PNA": lambda: pm.PNA(**base, aggregators=["mean", "max", "sum"], scalers=["identity", "amplification"],
                              deg=torch.tensor([0, 3, 5, 2])),
        "GraphUNet": lambda: pm.GraphUNet(8, 16, 3, depth=2),
    }


class TwoConvs(nn.Module):
    def __init__(self, convs):
        super().__init__()
        self.c1, self.c2 = convs
        self.head = nn.Linear(16, 3)

    def forward(self, x, edge_index):
        return self.head(self.c2(self.c1(x, edge_index).relu(), edge_index))


def torch_geometric_names():
    return sorted(["models." + n for n in _pyg_models()] + ["conv." + n for n in _pyg_convs()])


def torch_geometric_case(name):
    kind, n = name.split(".", 1)
    factory = (lambda: Graph(_pyg_models()[n]())) if kind == "models" else (lambda: TwoConvs(_pyg_convs()[n]()))
    exs = []
    for i, (nodes, edges, feat) in enumerate(((10, 30, 8), (7, 13, 8), (23, 61, 8), (2, 3, 8), (10, 30, 9))):
        g = _gen(i)
        exs.append((torch.randn(nodes, feat, generator=g), torch.randint(0, nodes, (2, edges), generator=g)))
    specs = [{"x": {0: _dim("nodes")}, "edge_index": {1: _dim("edges")}},
             {"x": {0: _auto()}, "edge_index": {1: _auto()}}]
    return Case(factory, exs, specs, "graph")


NAMES = {"timm": timm_names, "transformers": transformers_names, "torchvision": torchvision_names,
         "torch_geometric": torch_geometric_names}
CASES = {"timm": timm_case, "transformers": transformers_case, "torchvision": torchvision_case,
         "torch_geometric": torch_geometric_case}
