"""The benchmark report: every solution's demo measured, the seed labs' own systems beside
them, rendered as HTML and Markdown."""
