"""Printing the game (issue 14): arsenal cards, character sheets and event print runs.

- ``layout``: the A4 sheet geometry (3 x 3 cards of 63 x 88 mm, cut marks, duplex backs);
- ``content``: what goes on each card and sheet, with the QR codes (public addresses only);
- ``render``: HTML from ``templates/print/`` and, when WeasyPrint's libraries are there, PDF;
- ``runs``: one print run for a whole event, in chunks, with its progress (``cards.tasks``).
"""
