"""Engine pieces shared by every game."""

__all__ = ["batch", "cards", "game", "kernels", "output", "rng", "rundir", "search", "setup", "state", "worker"]
