"""The store: SQLAlchemy models and the few queries the web layer needs.

Nothing here knows the rules of Go-Stop; it keeps tables, hand records and
event logs, and refuses a stale append by its sequence number.
"""
