"""The server's machinery: how the app is served, configured, stored, protected and made fast."""
