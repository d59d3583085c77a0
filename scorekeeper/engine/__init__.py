"""The pure Go-Stop rules engine: no Flask, no database, no I/O."""
