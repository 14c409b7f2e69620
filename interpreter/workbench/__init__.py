"""The designer's tools: simulate and compare many games, solve a deal, describe a ruleset in
words, warn of what a validate finds (leaks)."""
