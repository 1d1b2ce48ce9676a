"""Learned evaluation: a value trained by self-play from each seat's own
information, evaluated in C at the leaves of the MCTS search.

* :mod:`.model`: the model file (JSON), loading, checking, the shipped
  models (a game's record names them: ``GameInfo.model``);
* :mod:`.train`: self-play, the fit (numpy), the strength match
  (``solve train GAME``);
* :mod:`.net`: a small ReLU network, its forward pass and its fit by Adam
  (kind ``"mlp"`` models, and the solo Coast to Coast values).

A game takes part by offering evaluation features from its C kernel
(``game._features_capsule()``, ``src/_core/eval_api.h``); the tools here
never name a game. ``docs/learning.md`` describes the whole pipeline.
"""

from .model import Model, load_model, model_from_json, resolve_model

__all__ = ["Model", "load_model", "model_from_json", "resolve_model"]
