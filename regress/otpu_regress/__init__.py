"""otpu-regress: the nightly RTL regression around otpu-lockstep (docs/regress.md)."""
