"""Cold storage: finished games moved out of Redis into one compressed record each."""
