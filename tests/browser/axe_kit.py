"""axe-core in a page (vendored in static/vendor, no CDN): its serious and critical violations."""

from django.templatetags.static import static

SERIOUS = ("serious", "critical")


def axe_violations(page, live_server) -> list[dict]:
    # Loaded from our own static files: the pages' CSP allows scripts from the site only.
    page.add_script_tag(url=live_server.url + static("vendor/axe.min.js"))
    result = page.evaluate(
        """async () => {
            const r = await axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"]}});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                            nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)}));
        }"""
    )
    return [v for v in result if v["impact"] in SERIOUS]
