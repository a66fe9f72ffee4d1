"""Text processing: tokenising, stemming and word lists."""
