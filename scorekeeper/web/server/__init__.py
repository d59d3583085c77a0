"""The server's machinery: how the app is served, configured, stored, protected, made fast and pushes changes."""
