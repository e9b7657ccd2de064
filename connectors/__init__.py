"""Where items come from: one small module per source."""
