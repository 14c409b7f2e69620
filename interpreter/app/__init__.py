"""The command line (cli) and the terminal table (play): the top of the house."""
