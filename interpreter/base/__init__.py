"""The base every stage stands on: errors with their positions, the limits of numbers and sizes,
the package's own files (bundled rulesets, the grammar) and the memo of loaded files. It imports
nothing of cardrules."""
