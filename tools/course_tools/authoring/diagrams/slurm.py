"""The diagrams of the cluster deck (slides/slurm.md and slurm.fr.md), exercise 25 among them."""

DIAGRAMS = []
