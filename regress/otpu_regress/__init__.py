"""otpu-regress: the nightly RTL regression around otpu-lockstep (README, "Nightly regression")."""
