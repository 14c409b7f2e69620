"""The size of ruleset files as the language-reach goals count it: characters without comments and
blank lines (a line that is only a comment, and a comment after a value, are left out).

    python benchmarks/ruleset_sizes.py rulesets/spades.yaml rulesets/ten-bucks.yaml
"""

from __future__ import annotations

import sys
from pathlib import Path


def without_comment(line: str) -> str:
    """`line` without a YAML comment: a `#` at the start or after white space, outside quotes."""
    quote = None
    for i, char in enumerate(line):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"" and (i == 0 or line[i - 1] in " \t:[{,-"):
            quote = char
        elif char == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i].rstrip()
    return line.rstrip()


def size(text: str) -> int:
    """Characters of the lines left, each with its newline."""
    lines = [without_comment(line) for line in text.splitlines()]
    return sum(len(line) + 1 for line in lines if line.strip())


def main() -> None:
    for name in sys.argv[1:]:
        print(f"{size(Path(name).read_text(encoding='utf-8')):6,d}  {name}")


if __name__ == "__main__":
    main()
