"""CP-SAT models (Coast to Coast itineraries and challenges)."""
