"""A page's DOM after a step's out-of-band answer, as htmx and static/js/sumrak.js make it (issue 24).

``Dom`` parses HTML with the standard library's ``html.parser`` (no lxml or
html5lib here) into a small tree of elements. ``apply_oob`` does what htmx 2
does with an answer of ``hx-swap-oob="true"`` elements - each replaces the
page's element of the same id, outerHTML - and of an
``hx-swap-oob="afterbegin:#<id> .<class>"`` one (a step's new log lines: its
children go to the head of the list, and sumrak.js keeps the newest), and then what sumrak.js's
``applyMarks`` does: the live part's mark is copied onto the live root and
into every form's ``version`` field. ``normalized`` blanks what differs per
response by design (the CSRF token, the forms' nonces, the server clock), so
a page patched by the answers can be compared with a fresh full render.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from html import escape
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass
class Element:
    tag: str
    attrs: list[tuple[str, str | None]]
    children: list[Element | str] = field(default_factory=list)
    parent: Element | None = None

    def get(self, name: str) -> str | None:
        return next((v for k, v in self.attrs if k == name), None)

    def has(self, name: str) -> bool:
        return any(k == name for k, _ in self.attrs)

    def set(self, name: str, value: str | None) -> None:
        for i, (k, _) in enumerate(self.attrs):
            if k == name:
                self.attrs[i] = (name, value)
                return
        self.attrs.append((name, value))

    def drop(self, name: str) -> None:
        self.attrs = [(k, v) for k, v in self.attrs if k != name]

    def walk(self) -> Iterator[Element]:
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.walk()

    def html(self) -> str:
        attrs = "".join(f" {k}" if v is None else f' {k}="{escape(v)}"' for k, v in self.attrs)
        if self.tag in VOID:
            return f"<{self.tag}{attrs}>"
        inner = "".join(c.html() if isinstance(c, Element) else escape(c, quote=False) for c in self.children)
        return f"<{self.tag}{attrs}>{inner}</{self.tag}>"


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", [])
        self.open = self.root

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, list(attrs), parent=self.open)
        self.open.children.append(element)
        if tag not in VOID:
            self.open = element

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.open.children.append(Element(tag, list(attrs), parent=self.open))

    def handle_endtag(self, tag: str) -> None:
        node: Element | None = self.open
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.open = node.parent

    def handle_data(self, data: str) -> None:
        self.open.children.append(data)


def parse(html: str) -> Element:
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


def _drop_line(parent: Element, li: Element) -> None:
    at = parent.children.index(li)
    before = parent.children[at - 1] if at else None
    del parent.children[at]
    if isinstance(before, str) and not before.strip():
        del parent.children[at - 1]


class Dom:
    def __init__(self, html: str) -> None:
        self.root = parse(html)

    def by_id(self, element_id: str) -> list[Element]:
        return [e for e in self.root.walk() if e.get("id") == element_id]

    def html(self) -> str:
        return "".join(c.html() if isinstance(c, Element) else escape(c, quote=False) for c in self.root.children)

    def apply_oob(self, answer: str) -> list[str]:
        """Swap each top-level ``hx-swap-oob="true"`` element of ``answer`` in by id; the ids swapped.

        Fails on anything htmx would not swap the same way: an element of the
        answer outside out-of-band swaps, an id the page lacks or has twice.
        """
        swapped: list[str] = []
        for node in parse(answer).children:
            if isinstance(node, str):
                assert not node.strip(), f"text outside the out-of-band elements: {node[:80]!r}"
                continue
            swap = node.get("hx-swap-oob") or ""
            if swap.startswith("afterbegin:"):
                swapped.append(self.prepend(node, swap.removeprefix("afterbegin:")))
                continue
            assert swap == "true", f"<{node.tag} id={node.get('id')}> is not swapped out of band"
            element_id = node.get("id") or ""
            targets = self.by_id(element_id)
            assert len(targets) == 1, f"the page has {len(targets)} elements with id {element_id!r}"
            node.drop("hx-swap-oob")
            target = targets[0]
            assert target.parent is not None
            siblings = target.parent.children
            siblings[siblings.index(target)] = node
            node.parent = target.parent
            swapped.append(element_id)
        self.apply_marks()
        return swapped

    def prepend(self, node: Element, selector: str) -> str:
        """htmx's ``afterbegin:#<id> .<class>``: ``node``'s children at the head of the one list named; then sumrak.js.

        sumrak.js's ``trimLog``: the "Nothing yet." line goes once a line is there, a line shown twice
        (by ``data-seq``) keeps its first, and the list keeps ``node``'s ``data-log-keep`` newest lines,
        each ``<li>`` dropped with the blank text before it. Returns ``+<id>``, the region prepended to.
        """
        region_id, _, cls = selector.partition(" .")
        assert region_id.startswith("#") and cls, f"a selector htmx would read otherwise: {selector!r}"
        regions = self.by_id(region_id[1:])
        assert len(regions) == 1, f"the page has {len(regions)} elements with id {region_id!r}"
        lists = [e for e in regions[0].walk() if cls in (e.get("class") or "").split()]
        assert len(lists) == 1, f"{selector!r} names {len(lists)} elements"
        target = lists[0]
        for child in node.children:
            if isinstance(child, Element):
                child.parent = target
        target.children[:0] = node.children
        keep = int(node.get("data-log-keep") or "0")
        lines = [c for c in target.children if isinstance(c, Element) and c.tag == "li"]
        logged = [li for li in lines if "log-line" in (li.get("class") or "").split()]
        if logged:
            seen: set[str | None] = set()
            kept = []
            for li in logged:
                if li.get("data-seq") in seen:
                    _drop_line(target, li)
                else:
                    seen.add(li.get("data-seq"))
                    kept.append(li)
            for li in [li for li in lines if li not in logged] + kept[keep:]:
                _drop_line(target, li)
        return f"+{region_id[1:]}"

    def apply_marks(self) -> None:
        """sumrak.js ``applyMarks``: region marks onto their regions, live marks onto their roots and forms."""
        for mark in [e for e in self.root.walk() if e.has("data-mark-for")]:
            for region in self.by_id(mark.get("data-mark-for") or ""):
                for name, value in mark.attrs:
                    if name.startswith("data-") and name != "data-mark-for":
                        region.set(name, value)
        for mark in [e for e in self.root.walk() if e.has("data-live-mark")]:
            root = mark.parent
            while root is not None and not root.has("data-live"):
                root = root.parent
            assert root is not None, "a live mark outside a live part"
            for name, value in mark.attrs:
                if name.startswith("data-") and name != "data-live-mark":
                    root.set(name, value)
            for element in root.walk():
                if element.tag == "input" and element.get("name") == "version":
                    element.set("value", mark.get("data-version"))

    def values(self, name: str) -> list[str]:
        return [e.get("value") or "" for e in self.root.walk() if e.tag == "input" and e.get("name") == name]

    def normalized(self) -> str:
        """The page with what differs per response blanked: CSRF tokens, nonces, the server clock."""
        copy = Dom(self.html())
        for element in copy.root.walk():
            if element.tag == "input" and element.get("name") in ("csrfmiddlewaretoken", "nonce"):
                element.set("value", "*")
            if element.has("data-server-now"):
                element.set("data-server-now", "*")
        return copy.html()

    def form(self, action: str, **hidden: object) -> tuple[str, dict[str, str]]:
        """The page's form for ``action`` whose hidden fields match ``hidden``: where it posts, its hidden fields.

        What a tap sends (the caller adds the button's value): the version and
        nonce are the page's own, so a form left with an old version would be
        refused as stale.
        """
        for element in self.root.walk():
            if element.tag != "form" or element.get("data-action") != action:
                continue
            fields = {
                e.get("name") or "": e.get("value") or ""
                for e in element.walk()
                if e.tag == "input" and e.get("type") == "hidden" and e.get("name")
            }
            if all(fields.get(k) == str(v) for k, v in hidden.items()):
                return element.get("hx-post") or "", fields
        raise AssertionError(f"no {action!r} form with {hidden}")

    def live_root(self) -> Element:
        return next(e for e in self.root.walk() if e.has("data-live"))
