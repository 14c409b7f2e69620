"""The reference backend: a game played in Python (`Game`, `State`, `Move` in engine), its legal
moves and effects generated as Python code (movegen, applygen), why a move is or is not legal
(explain), and the game drawn as text (render)."""
