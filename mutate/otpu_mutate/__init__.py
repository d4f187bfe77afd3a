"""otpu-mutate: the mutation score of the lockstep checker and its generated programs, measured
on source mutants of the project's reference RTL (mutate/README.md)."""
