"""The front end: a ruleset's text read with positions (source), variants merged (variants),
checked against the JSON Schema (schema), its deck (decks), its expressions parsed (parser) and
typed, folded and compiled (compiler). It knows no backend."""
