"""Engine pieces shared by every game."""
