"""The browser game: a FastAPI server, its game sessions and the static client."""
