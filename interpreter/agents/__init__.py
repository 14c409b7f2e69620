"""What plays a game: the bots (bots), the clock of games where every seat plays at once
(scheduler), and the Gymnasium and PettingZoo environments (envs, public as `cardrules.envs`)."""
