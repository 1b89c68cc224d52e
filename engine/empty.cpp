// Keeps placeholder libraries non-empty.
