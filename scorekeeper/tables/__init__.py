"""A table between the store and the engine, without Flask: its state replayed, who sits out, names,
export and import, and the hand record read in one place (``records``).

A regular package (not a namespace one) so that ``find_packages`` ships it in the wheel.
"""
