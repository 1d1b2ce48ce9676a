"""Game-agnostic search: MCTS, information-set MCTS, exact endgame search."""
