"""The maintainers' tools: a new exercise from templates, the skeleton's student regions, the
statements' and decks' French parity, the slides' diagrams."""
