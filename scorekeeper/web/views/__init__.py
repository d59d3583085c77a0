"""What pages show, gathered for the templates: cards, charts, the table page, links, exports."""
