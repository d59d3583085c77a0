"""Every word the pages show, in Korean and English: the message catalogue
(``messages``), the engine's terms (``terms``) and the choice of language (``i18n``).
"""
