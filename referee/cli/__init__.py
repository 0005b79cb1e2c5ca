"""The command line: one module per command. May import anything."""
