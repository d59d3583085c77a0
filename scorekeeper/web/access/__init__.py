"""Who may open what: a table's or a group's secret, and a phone's seat."""
