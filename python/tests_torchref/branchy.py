"""The issue's Branchy model: a branch on a size (`x.shape[1] > 16`) that torch.export must
turn into a guard or a range, never drop. Shared by the export and verify tests."""
from torch import nn


class Branchy(nn.Module):
    def __init__(s):
        super().__init__()
        s.l = nn.Linear(16, 16)

    def forward(s, x):
        if x.shape[1] > 16:
            x = x[:, :16]
        else:
            x = nn.functional.pad(x, (0, 0, 0, 16 - x.shape[1]))
        return s.l(x).sum(1)
