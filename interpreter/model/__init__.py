"""The loaded ruleset (`Ruleset`, its zones, variables, move templates, triggers and end rule),
and the analyses every backend and tool shares: the turns of a stock (turn_runs), derived move
indexes (indexes), the action space and the observation layout of the agents' API."""
