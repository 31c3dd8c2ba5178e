"""Keys of a browser's session that more than one app reads."""

LOBBY_URL_KEY = "lobby_url"  # where a student goes back to after a game (a lobby, the homework page)
