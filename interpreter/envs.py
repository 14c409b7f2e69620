"""`cardrules.envs`, the public name of the Gymnasium and PettingZoo environments (their code:
agents/envs.py). Importing it registers the Gymnasium environments."""

from .agents.envs import (ACTIONS, DEFAULT_MAX_STEPS, MAX_FIXED_ACTIONS, MAX_LISTED_ACTIONS, MAX_OBSERVATION, REWARDS,
                          CardrulesAEC, CardrulesEnv, CardrulesParallel, one_seat_rulesets, parallel_env,
                          pettingzoo_env, register, reset_options, reset_seed)

__all__ = ["ACTIONS", "DEFAULT_MAX_STEPS", "MAX_FIXED_ACTIONS", "MAX_LISTED_ACTIONS", "MAX_OBSERVATION", "REWARDS",
           "CardrulesAEC", "CardrulesEnv", "CardrulesParallel", "one_seat_rulesets", "parallel_env", "pettingzoo_env",
           "register", "reset_options", "reset_seed"]
