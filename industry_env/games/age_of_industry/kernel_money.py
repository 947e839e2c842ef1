"""Age of Industry's money, compiled (the reference's :mod:`.money`): loans, payments and a counter's flip."""

from __future__ import annotations

import numpy as np

from ...core.numba_cache import njit  # numba's, falling back to no disk cache where none is writable
from .kernel_layout import (
    F_LOANS,
    F_MONEY,
    F_SPACE_FLIPPED,
    F_SPACE_INDUSTRY,
    F_SPACE_LEVEL,
    F_SPACE_OWNER,
    F_SPENT,
    X_LOAN_REPAY,
    X_LOAN_VALUE,
    X_NS,
    X_SLOT_INCOME,
    X_SLOT_OF,
    P,
)


# ============================================================================================== money
@njit(cache=True)
def take_loans(g, t, i, p, amount):
    money = np.int64(g.s32[g.at[F_MONEY] + i * P + p])
    if money < amount:
        k = -(-(amount - money) // t[X_LOAN_VALUE])
        g.s16[g.at[F_LOANS] + i * P + p] += k
        g.s32[g.at[F_MONEY] + i * P + p] = money + k * t[X_LOAN_VALUE]


@njit(cache=True)
def pay(g, t, i, p, amount, spent):
    if amount <= 0:
        return
    take_loans(g, t, i, p, amount)
    g.s32[g.at[F_MONEY] + i * P + p] -= amount
    if spent:
        g.s16[g.at[F_SPENT] + i * P + p] += amount


@njit(cache=True)
def repay_loan(g, t, i, p):
    pay(g, t, i, p, t[X_LOAN_REPAY], np.bool_(False))
    g.s16[g.at[F_LOANS] + i * P + p] -= 1


# ============================================================================================== flips and cubes
@njit(cache=True)
def flip(g, t, i, sp):
    g.s8[g.at[F_SPACE_FLIPPED] + i * t[X_NS] + sp] = 1
    d = t[
        t[X_SLOT_OF]
        + g.s8[g.at[F_SPACE_INDUSTRY] + i * t[X_NS] + sp] * t[X_SLOT_OF + 2]
        + g.s8[g.at[F_SPACE_LEVEL] + i * t[X_NS] + sp]
    ]
    g.s32[g.at[F_MONEY] + i * P + g.s8[g.at[F_SPACE_OWNER] + i * t[X_NS] + sp]] += t[t[X_SLOT_INCOME] + d]
