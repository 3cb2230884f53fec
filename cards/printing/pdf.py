"""PDF files of prints, with what is the same laid out once (render.render_document's arguments).

WeasyPrint's time grows with every box and line it lays out, and a card sheet
repeats itself: every back of an event is alike (the event's back, or a magic
deck's number), and a catalogue card's face (name, effects, rules text) is the
same on each of its thousands of copies; only the owner, the number and the QR
code differ. So ``document_pdf`` has WeasyPrint lay out

- the document with each front holding only its marks (owner, number, QR code),
- each distinct face once, on a page of a card's size,
- each distinct back page once,

and pypdf builds the file: each face becomes a form XObject drawn into its slots
(the text stays text: pdftotext and search find it), and each back page is put
behind its front, sharing its content. bench/print_run.py measures the effect.
"""

from __future__ import annotations

import io
from typing import Any

from cards.printing import layout, render

MM = 72 / 25.4


def document_pdf(**document: Any) -> bytes:
    document["sheets"] = list(document.get("sheets") or ())
    pages = document.pop("pages", None)
    if pages is None:
        pages = render.card_pages(document.pop("cards", None) or [], document.pop("first_number", 1))
    fronts = [page for page in pages if page.side != "back"]
    backs: dict[tuple, layout.Page[Any]] = {}
    order: list[tuple | None] = []  # None: the next front page; else the key of the back page there
    for page in pages:
        key = None
        if page.side == "back":
            key = tuple((slot.css, slot.item.back_key) for slot in page.slots)
            backs.setdefault(key, page)
        order.append(key)
    faces: dict[Any, Any] = {}
    for page in fronts:
        for slot in page.slots:
            if getattr(slot.item, "face_template", None):
                faces.setdefault(slot.item.face_key, slot.item)
    main = render.html_to_pdf(render.render_document(**document, pages=fronts, for_pdf=True, stamped=bool(faces)))
    if not backs and not faces:
        return main
    event = document.get("event")
    back_pdf = (
        render.html_to_pdf(render.render_document(title="", event=event, pages=list(backs.values()), for_pdf=True))
        if backs
        else b""
    )
    face_pdf = render.html_to_pdf(render.render_faces(list(faces.values()), event)) if faces else b""
    lead = _lead_pages(document, bool(fronts))
    return _assemble(main, lead, order, fronts, back_pdf, list(backs), face_pdf, list(faces))


def _lead_pages(document: dict[str, Any], cards: bool) -> int:
    """The pages before the first card page: the character sheets and the blank page after them."""
    sheets = len(document["sheets"])
    blank = render.blank_after(sheets, cards, document.get("pad_to_even", False), document.get("blank_only", False))
    return sheets + int(blank)


def _assemble(
    main: bytes,
    lead: int,
    order: list[tuple | None],
    fronts: list[layout.Page[Any]],
    back_pdf: bytes,
    back_keys: list[tuple],
    face_pdf: bytes,
    face_keys: list[Any],
) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    pages = iter(PdfReader(io.BytesIO(main)).pages)
    backs = PdfReader(io.BytesIO(back_pdf)).pages if back_pdf else []
    back_at = {key: index for index, key in enumerate(back_keys)}
    forms = _forms(writer, face_pdf, face_keys) if face_pdf else {}
    for _ in range(lead):
        writer.add_page(next(pages))
    sheet = iter(fronts)
    for key in order:
        if key is None:
            _stamp(writer, writer.add_page(next(pages)), next(sheet), forms)
        else:
            # A back page added again shares its content with the first: the file does not grow with it.
            writer.add_page(backs[back_at[key]])
    for page in pages:  # the army rosters
        writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _forms(writer: Any, face_pdf: bytes, face_keys: list[Any]) -> dict[Any, Any]:
    """Each face page of ``face_pdf`` as a form XObject of ``writer``, by its key."""
    from pypdf import PdfReader
    from pypdf.generic import DecodedStreamObject, NameObject

    forms: dict[Any, tuple[Any, Any]] = {}
    for key, page in zip(face_keys, PdfReader(io.BytesIO(face_pdf)).pages, strict=True):
        drawing, resources = page.get_contents(), page.get("/Resources")
        if drawing is None or resources is None:
            raise ValueError("a card face printed nothing")
        form = DecodedStreamObject()
        form.set_data(drawing.get_data())
        form[NameObject("/Type")] = NameObject("/XObject")
        form[NameObject("/Subtype")] = NameObject("/Form")
        form[NameObject("/BBox")] = page.mediabox
        form[NameObject("/Resources")] = resources.get_object().clone(writer)
        forms[key] = (NameObject(f"/SumrakFace{len(forms)}"), writer._add_object(form.flate_encode()))
    return forms


def _stamp(writer: Any, page: Any, sheet: layout.Page[Any], forms: dict[Any, Any]) -> None:
    """Draw each slot's face (a form XObject) into its place on the front ``page``."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject

    placed = [
        (slot, forms[slot.item.face_key]) for slot in sheet.slots if getattr(slot.item, "face_key", None) in forms
    ]
    if not placed:
        return
    resources = page[NameObject("/Resources")].get_object()
    if "/XObject" not in resources:
        resources[NameObject("/XObject")] = DictionaryObject()
    xobjects = resources["/XObject"].get_object()
    drawing = ["Q"]  # the page's own content is wrapped in q ... Q: the faces start from a clean state
    for slot, (name, ref) in placed:
        xobjects[name] = ref
        x, y = slot.left_mm * MM, (layout.PAGE_H_MM - slot.top_mm - layout.CARD_H_MM) * MM
        drawing.append(f"q 1 0 0 1 {x:.3f} {y:.3f} cm {name} Do Q")
    before, after = DecodedStreamObject(), DecodedStreamObject()
    before.set_data(b"q\n")
    after.set_data("\n".join(drawing).encode() + b"\n")
    contents = page.raw_get("/Contents")  # the reference: a stream is never put directly into an array
    own = list(contents.get_object()) if isinstance(contents.get_object(), ArrayObject) else [contents]
    page[NameObject("/Contents")] = ArrayObject([writer._add_object(before), *own, writer._add_object(after)])
