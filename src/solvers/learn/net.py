"""Small fully connected networks: the forward pass and a fit by Adam.

A network is a list of layers ``(w, b)``, ``w`` of shape ``[inputs,
outputs]`` (float32), ReLU between layers and none after the last. Two
users share it: the leaf value of a search (:mod:`solvers.learn.model`,
kind ``"mlp"``, one logistic output evaluated in C at every leaf) and the
solo Coast to Coast sheet values (:mod:`solvers.games.c2c.values`, two
outputs fitted to squared error).

>>> import numpy as np
>>> layers = [(np.array([[1.0, -1.0]], np.float32), np.zeros(2, np.float32)),
...           (np.array([[1.0], [1.0]], np.float32), np.zeros(1, np.float32))]
>>> forward(layers, np.array([[2.0], [-3.0]], np.float32)).ravel().tolist()
[2.0, 3.0]
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

import numpy as np

Layers = list[tuple[np.ndarray, np.ndarray]]

_controller: Any = None


def one_blas_thread() -> AbstractContextManager[Any]:
    """A context in which numpy's BLAS runs on the calling thread alone.

    For inference on a few hundred rows while a search waits: a threaded
    BLAS gains nothing there, and its workers go on spinning for a while
    after each product, taking a second core's time from the search (or
    from another worker) that follows. Measured on the solo Coast to Coast
    player: its CPU time a decision fell from 11.0 to 6.9 ms, the same
    moves played (docs/learning.md). Training keeps every thread.
    OpenBLAS's count is one setting of the whole process: threadpoolctl
    (3.8) lets the first thread that sets it keep it, so in the other
    threads of a process this context leaves it as it is.
    """
    global _controller
    from threadpoolctl import ThreadpoolController

    if _controller is None:     # scanning the loaded libraries costs ~1 ms: once
        _controller = ThreadpoolController()
    return _controller.limit(limits=1, user_api="blas")


def fresh_layers(sizes: tuple[int, ...], rng: np.random.Generator,
                 last_scale: float = 1.0) -> Layers:
    """Layers of ``sizes`` (inputs, hidden..., outputs) with He initialisation
    (the last layer's weights times ``last_scale``) and zero biases."""
    last = len(sizes) - 2
    return [((rng.normal(0, np.sqrt(2.0 / a), (a, b)) * (last_scale if i == last else 1.0))
             .astype(np.float32), np.zeros(b, np.float32))
            for i, (a, b) in enumerate(zip(sizes, sizes[1:], strict=False))]


def forward(layers: Layers, x: np.ndarray) -> np.ndarray:
    """The network's outputs ``[n, outputs]`` for inputs ``x`` ``[n, inputs]``."""
    h = x
    for i, (w, b) in enumerate(layers):
        h = h @ w + b
        if i < len(layers) - 1:
            h = np.maximum(h, 0)
    return h


def adam_fit(layers: Layers, x: np.ndarray, target: np.ndarray, train: np.ndarray, *,
             rng: np.random.Generator, loss_grad: Callable[[np.ndarray, np.ndarray], np.ndarray],
             held_out: Callable[[], float], epochs: int, batch: int, lr: float, decay: float,
             progress: Callable[[int, float], None] | None = None, patience: int | None = None
             ) -> float:
    """Fit ``layers`` in place by Adam (Kingma and Ba 2015) on the rows
    ``train`` of ``x`` and ``target``, shuffled by ``rng`` each epoch:
    ``loss_grad(outputs, targets)`` is the gradient of a batch's mean loss
    with respect to the outputs, ``decay`` an L2 penalty on the weights.
    After each epoch ``held_out()`` measures the network; the epoch that
    measured least is kept (early stopping; with ``patience``, the fit also
    stops after that many epochs without a better one). Returns its
    measure."""
    params = [p for layer in layers for p in layer]
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    step = 0
    best = (held_out(), [p.copy() for p in params])
    since = 0
    for epoch in range(epochs):
        rng.shuffle(train)
        for k in range(0, len(train), batch):
            idx = train[k:k + batch]
            acts = [x[idx]]
            for i, (w, b) in enumerate(layers):
                h = acts[-1] @ w + b
                acts.append(np.maximum(h, 0) if i < len(layers) - 1 else h)
            grad = loss_grad(acts[-1], target[idx])
            grads = []
            for i in range(len(layers) - 1, -1, -1):
                w, _ = layers[i]
                grads.append((acts[i].T @ grad + decay * w, grad.sum(axis=0)))
                if i:
                    grad = (grad @ w.T) * (acts[i] > 0)
            flat = [g for pair in reversed(grads) for g in pair]
            step += 1
            for p, g, a, v in zip(params, flat, m1, m2, strict=True):
                a *= 0.9
                a += 0.1 * g
                v *= 0.999
                v += 0.001 * g * g
                p -= lr * (a / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
        err = held_out()
        if err < best[0]:
            best = (err, [p.copy() for p in params])
            since = 0
        else:
            since += 1
        if progress is not None:
            progress(epoch + 1, err)
        if patience is not None and since >= patience:
            break
    for p, q in zip(params, best[1], strict=True):
        p[...] = q
    return best[0]
