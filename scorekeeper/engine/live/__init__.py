"""The live hand: its event log applied step by step (``hand.apply``), the state it
makes, and the summary a finished log scores as.
"""
