"""What a students' copy of the course runs: make NN, run-NN, check-NN, make, make test, make
slides and the prerequisites. The release ships this folder whole, so it imports nothing
outside it."""
