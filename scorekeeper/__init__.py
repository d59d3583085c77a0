"""scorekeeper: Go-Stop (고스톱) scores and payments computed from the cards."""
