"""What outlives a game: the values a ruleset keeps between games (store, under the ruleset's data
key, behind a file lock) and saved games (saves)."""
