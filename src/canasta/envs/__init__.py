"""Research interfaces: OpenSpiel, PettingZoo and Gymnasium (pip install canasta[rl])."""
