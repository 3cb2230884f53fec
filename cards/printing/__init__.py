"""Printing the game (issue 14): arsenal cards, character sheets, magic decks, army rosters, event print runs.

- ``layout``: the A4 sheet geometry (3 x 3 cards of 63 x 88 mm, cut marks, duplex backs);
- ``content``: what goes on each card and sheet, with the QR codes (public addresses only);
- ``mass``: the mass battles' magic decks and army rosters (M1-M3);
- ``render``: HTML from ``templates/print/`` and, when WeasyPrint's libraries are there, PDF;
- ``pdf``: a print's PDF with what is alike (backs, card faces) laid out once;
- ``runs``: one print run for a whole event, in parts, with its progress (``cards.printing.tasks``).
"""
