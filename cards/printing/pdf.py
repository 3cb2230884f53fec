"""PDF files of prints, with what is alike laid out once (render.render_document's arguments).

WeasyPrint's time grows with every box and line it lays out, and a card sheet
repeats itself: every back of an event is alike (the event's back, or a magic
deck's number), and a catalogue card's face (name, effects, rules text, the QR
code to its entry) is the same on each of its thousands of copies; only the
owner and the number differ. So ``document_pdf`` has WeasyPrint lay out

- the document with each card front holding only its foot (owner, number),
- each distinct face once, on a page of a card's size,
- each distinct back page once,

and pypdf builds the file: each face becomes a form XObject drawn into its slots
(the text stays text: pdftotext and search find it), and each back page is put
behind its front, sharing its content. A face or back page is kept, by its
HTML, for the next parts the same process prints (``_laid_out``, ``_FACES``):
the HTML says everything that makes the page (words, language, addresses). bench/print_run.py
measures the effect.
"""

from __future__ import annotations

import io
import threading
from functools import lru_cache
from typing import Any

from cards.printing import layout, render

MM = 72 / 25.4
_KEPT = threading.Lock()


def document_pdf(**document: Any) -> bytes:
    document["sheets"] = list(document.get("sheets") or ())
    pages = document.pop("pages", None)
    if pages is None:
        pages = render.card_pages(document.pop("cards", None) or [], document.pop("first_number", 1))
    fronts = [page for page in pages if page.side != "back"]
    event = document.get("event")
    backs: dict[tuple, layout.Page[Any]] = {}  # each kind of back page, by its slots and their backs
    order: list[tuple | None] = []  # per card page: None for the next front, else its back page's key
    for page in pages:
        key = None
        if page.side == "back":
            key = tuple((slot.css, slot.item.back_key) for slot in page.slots)
            backs.setdefault(key, page)
        order.append(key)
    faces = {
        slot.item.face_key: slot.item
        for page in fronts
        for slot in page.slots
        if getattr(slot.item, "face_template", None)
    }
    main = render.html_to_pdf(render.render_document(**document, pages=fronts, for_pdf=True, stamped=bool(faces)))
    if not backs and not faces:
        return main
    # The kept pages are read lazily from their PDFs: one thread at a time (a web process has several).
    with _KEPT:
        back_pages = {key: _back_page(page, event) for key, page in backs.items()}
        laid_out = [None if key is None else back_pages[key] for key in order]
        face_pages = _face_pages(faces, event)
        return _assemble(main, _lead_pages(document, bool(fronts)), laid_out, fronts, face_pages)


@lru_cache(maxsize=512)
def _laid_out(html: str) -> Any:
    """The PDF of ``html`` as a pypdf reader, kept for the next part with the same page."""
    from pypdf import PdfReader

    return PdfReader(io.BytesIO(render.html_to_pdf(html)))


def _back_page(page: layout.Page[Any], event: Any) -> Any:
    return _laid_out(render.render_document(title="", event=event, pages=[page], for_pdf=True)).pages[0]


# A card's face as a pypdf page, by the HTML of the face alone; faces not kept yet are laid out together.
_FACES: dict[str, Any] = {}
KEEP_FACES = 2000


def _face_pages(faces: dict[Any, Any], event: Any) -> dict[Any, Any]:
    from pypdf import PdfReader

    html = {key: render.render_faces([item], event) for key, item in faces.items()}
    found = {key: _FACES.get(html[key]) for key in faces}
    missing = [key for key, page in found.items() if page is None]
    if missing:
        if len(_FACES) + len(missing) > KEEP_FACES:
            _FACES.clear()
        laid_out = PdfReader(io.BytesIO(render.html_to_pdf(render.render_faces([faces[k] for k in missing], event))))
        for key, page in zip(missing, laid_out.pages, strict=True):
            found[key] = _FACES[html[key]] = page
    return found


def _lead_pages(document: dict[str, Any], cards: bool) -> int:
    """The pages before the first card page: the character sheets and the blank page after them."""
    sheets = len(document["sheets"])
    blank = render.blank_after(sheets, cards, document.get("pad_to_even", False), document.get("blank_only", False))
    return sheets + int(blank)


def _assemble(main: bytes, lead: int, order: list[Any], fronts: list[layout.Page[Any]], faces: dict[Any, Any]) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    pages = iter(PdfReader(io.BytesIO(main)).pages)
    for _ in range(lead):
        writer.add_page(next(pages))
    forms: dict[Any, tuple[Any, Any]] = {}
    sheet = iter(fronts)
    for back in order:
        if back is None:
            _stamp(writer, writer.add_page(next(pages)), next(sheet), forms, faces)
        else:
            # A back page added again shares its content with the first: the file does not grow with it.
            writer.add_page(back)
    for page in pages:  # the army rosters
        writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _form(writer: Any, page: Any, number: int) -> tuple[Any, Any]:
    """A face page as a form XObject of ``writer``: its name in a page's resources and its reference."""
    from pypdf.generic import DecodedStreamObject, NameObject

    drawing, resources = page.get_contents(), page.get("/Resources")
    if drawing is None or resources is None:
        raise ValueError("a card face printed nothing")
    form = DecodedStreamObject()
    form.set_data(drawing.get_data())
    form[NameObject("/Type")] = NameObject("/XObject")
    form[NameObject("/Subtype")] = NameObject("/Form")
    form[NameObject("/BBox")] = page.mediabox
    form[NameObject("/Resources")] = resources.get_object().clone(writer)
    return NameObject(f"/SumrakFace{number}"), writer._add_object(form.flate_encode())


def _stamp(writer: Any, page: Any, sheet: layout.Page[Any], forms: dict[Any, tuple[Any, Any]], faces: dict) -> None:
    """Draw each slot's face (a form XObject of ``writer``, made once) into its place on the front ``page``."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, NameObject

    placed = []
    for slot in sheet.slots:
        if not getattr(slot.item, "face_template", None):
            continue
        if slot.item.face_key not in forms:
            forms[slot.item.face_key] = _form(writer, faces[slot.item.face_key], len(forms))
        placed.append((slot, forms[slot.item.face_key]))
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
