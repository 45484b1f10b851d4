"""A Discord bot for group card play: Insomnia and Malice."""
