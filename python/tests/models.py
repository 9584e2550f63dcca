"""Hand-written transformer-style modules for the exporter tests (none is in
shared/corpus/visible): a causal GPT-style decoder with learned positions, an encoder
with a padding mask and RMSNorm written with einsum, and a ViT-style patch encoder with
a class token."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalDecoder(nn.Module):
    def __init__(self, vocab=50, dim=32, heads=4, max_len=16):
        super().__init__()
        self.heads = heads
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.ln1, self.ln2 = nn.LayerNorm(dim), nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        b, t = input_ids.shape
        pos = torch.arange(t, dtype=torch.long)
        x = self.tok(input_ids) + self.pos(pos)
        h = self.ln1(x)
        q, k, v = self.qkv(h).split(x.size(-1), dim=-1)
        d = x.size(-1) // self.heads
        q = q.view(b, t, self.heads, d).transpose(1, 2)
        k = k.view(b, t, self.heads, d).transpose(1, 2)
        v = v.view(b, t, self.heads, d).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(d))
        mask = torch.ones(t, t).triu(1).bool()
        att = att.masked_fill(mask, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, -1)
        x = x + self.proj(y)
        x = x + self.mlp(self.ln2(x))
        return self.head(x)


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class MaskedEncoder(nn.Module):
    def __init__(self, dim=24, heads=3):
        super().__init__()
        self.heads = heads
        self.norm = RMSNorm(dim)
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)
        self.ff = nn.Sequential(nn.Linear(dim, 2 * dim), nn.SiLU(), nn.Linear(2 * dim, dim))

    def forward(self, x, attention_mask):
        b, s, c = x.size()
        h = self.norm(x)
        q = self.q(h).reshape(b, s, self.heads, c // self.heads)
        k = self.k(h).reshape(b, s, self.heads, c // self.heads)
        v = self.v(h).reshape(b, s, self.heads, c // self.heads)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(c // self.heads)
        scores = scores + (1.0 - attention_mask[:, None, None, :].to(scores.dtype)) * -10000.0
        probs = F.softmax(scores, dim=-1)
        ctx = torch.einsum("bhqk,bkhd->bqhd", probs, v).flatten(2)
        x = x + self.out(ctx)
        return x + self.ff(self.norm(x))


class PatchEncoder(nn.Module):
    def __init__(self, patch=4, dim=16, heads=2, classes=5):
        super().__init__()
        self.heads = heads
        self.embed = nn.Conv2d(3, dim, patch, stride=patch)
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.ln = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.fc = nn.Linear(dim, classes)
        self.drop = nn.Dropout(0.1)

    def forward(self, img):
        x = self.embed(img).flatten(2).transpose(1, 2)
        b, n, c = x.shape
        x = torch.cat([self.cls.expand(b, -1, -1), x], dim=1)
        qkv = self.qkv(self.ln(x)).reshape(b, n + 1, 3, self.heads, c // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        att = (q @ k.transpose(-2, -1)).mul(0.5).softmax(-1)
        x = x + self.drop(self.proj((att @ v).transpose(1, 2).reshape(b, n + 1, c)))
        return self.fc(x[:, 0])
