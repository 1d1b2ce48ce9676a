"""A small Markdown to HTML renderer for the rules pages of ``solve serve``.

It knows what ``docs/rules/*.md`` use: headings, paragraphs, lists (``*``,
``-`` and numbered, nested by indentation), tables, fenced code, inline
code, bold, italics, links and ``<a id="...">`` anchors; HTML comments are
dropped. Everything else is text: every character of the source is
escaped, so no page can carry markup (or script) into the browser. A link
is kept only to a web address or a place on the same page; another rules
page becomes its name in text.

>>> render("# Rules\\n\\nA **bold** <b>move</b> and `code`.")
'<h2 id="rules">Rules</h2>\\n<p>A <strong>bold</strong> &lt;b&gt;move&lt;/b&gt; and <code>code</code>.</p>'
>>> render("* one\\n* two [see](#rules)")
'<ul>\\n<li>one\\n</li>\\n<li>two <a href="#rules">see</a>\\n</li></ul>'
"""

from __future__ import annotations

import html
import re

ANCHOR = re.compile(r'^\s*<a (?:id|name)="([A-Za-z0-9_-]+)"></a>\s*$')
COMMENT = re.compile(r"<!--.*?-->", re.S)
ITEM = re.compile(r"^(\s*)([*-]|\d+\.)\s+(.*)$")
SAFE_URL = re.compile(r"^(https?://[^\s\"'<>]+|#[A-Za-z0-9_-]+)$")


def slug(text: str) -> str:
    """An id for a heading, as GitHub makes one (lower case, hyphens).

    >>> slug("Hidden information, and why")
    'hidden-information-and-why'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text.lower().replace("`", ""))
    return text.replace(" ", "-")


def inline(text: str) -> str:
    """One line of text: links, code spans, bold and italics; the rest escaped."""
    out = []
    pos = 0
    for m in re.finditer(r"\[([^\]]+)\]\(([^)\s]*)\)", text):
        out.append(_spans(text[pos:m.start()]))
        label, url = _spans(m.group(1)), m.group(2)
        if SAFE_URL.match(url):
            rel = "" if url.startswith("#") else ' rel="noopener noreferrer"'
            out.append(f'<a href="{html.escape(url)}"{rel}>{label}</a>')
        else:
            out.append(label)
        pos = m.end()
    out.append(_spans(text[pos:]))
    return "".join(out)


def _spans(text: str) -> str:
    """Code spans, bold and italics of text without links; the rest escaped."""
    out = []
    for i, part in enumerate(re.split(r"(`[^`]*`)", text)):
        out.append(f"<code>{html.escape(part[1:-1])}</code>" if i % 2 else _emphasis(html.escape(part)))
    return "".join(out)


def _emphasis(escaped: str) -> str:
    escaped = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", escaped)
    return re.sub(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", r"<em>\1</em>", escaped)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def render(text: str) -> str:
    """The HTML of a Markdown page (a fragment; headings one level down, so
    the page's title is an ``h2``)."""
    lines = COMMENT.sub("", text).splitlines()
    out: list[str] = []
    para: list[str] = []
    stack: list[tuple[int, str]] = []        # open lists: (indentation, tag)
    i = 0

    def close_para() -> None:
        if para:
            out.append("<p>" + inline(" ".join(para)) + "</p>")
            para.clear()

    def close_lists(indent: int = -1) -> None:
        while stack and stack[-1][0] > indent:
            out.append(f"</li></{stack.pop()[1]}>")

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            close_para()
            close_lists()
            body = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                body.append(lines[i])
                i += 1
            out.append("<pre><code>" + html.escape("\n".join(body)) + "</code></pre>")
            i += 1
            continue
        anchor = ANCHOR.match(line)
        if anchor:
            close_para()
            out.append(f'<span id="{anchor.group(1)}"></span>')
            i += 1
            continue
        if not stripped:
            close_para()
            if not (i + 1 < len(lines) and ITEM.match(lines[i + 1]) and stack):
                close_lists()
            i += 1
            continue
        heading = re.match(r"^(#{1,6})\s+(.*?)\s*#*$", line)
        if heading:
            close_para()
            close_lists()
            level = min(6, len(heading.group(1)) + 1)
            title = heading.group(2)
            out.append(f'<h{level} id="{html.escape(slug(title))}">{inline(title)}</h{level}>')
            i += 1
            continue
        if stripped.startswith("|") and i + 1 < len(lines) and re.match(r"^\s*\|[\s:|-]+\|\s*$", lines[i + 1]):
            close_para()
            close_lists()
            head = "".join(f"<th>{inline(c)}</th>" for c in _cells(line))
            rows = []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in _cells(lines[i])) + "</tr>")
                i += 1
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")
            continue
        item = ITEM.match(line)
        if item and para and not stack and item.group(2) not in ("*", "-", "1."):
            item = None                 # "18." inside a paragraph is no list
        if item:
            close_para()
            indent = len(item.group(1).expandtabs())
            tag = "ul" if item.group(2) in "*-" else "ol"
            if stack and stack[-1][0] >= indent:
                close_lists(indent)
            if stack and stack[-1][0] == indent:
                out.append("</li>")
            else:
                out.append(f"<{tag}>")
                stack.append((indent, tag))
            out.append("<li>" + inline(item.group(3)))
            i += 1
            continue
        if stack and line[:1].isspace():
            out[-1] += " " + inline(stripped)      # a list item's next line
            i += 1
            continue
        close_lists()
        para.append(stripped)
        i += 1
    close_para()
    close_lists()
    return "\n".join(out)


#: The elements :func:`render` makes, and the attributes each may carry.
TAGS = {"h2": ("id",), "h3": ("id",), "h4": ("id",), "h5": ("id",), "h6": ("id",), "p": (),
        "ul": (), "ol": (), "li": (), "pre": (), "code": (), "strong": (), "em": (),
        "a": ("href", "rel"), "span": ("id",), "table": (), "thead": (), "tbody": (), "tr": (),
        "th": (), "td": ()}


def render_tree(text: str) -> list:
    """The page as a tree of nodes instead of HTML text, for a page script
    that builds its elements one by one (never from markup): a node is
    ``[tag, {attribute: value}, child, ...]``, a child a node or a string.

    >>> render_tree("A **b** <i>")
    [['p', {}, 'A ', ['strong', {}, 'b'], ' <i>']]
    """
    from html.parser import HTMLParser

    root: list = ["root", {}]
    stack = [root]

    class Builder(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list) -> None:
            allowed = TAGS[tag]
            node = [tag, {k: v for k, v in attrs if k in allowed and v is not None}]
            stack[-1].append(node)
            stack.append(node)

        def handle_endtag(self, tag: str) -> None:
            while len(stack) > 1:
                if stack.pop()[0] == tag:
                    break

        def handle_data(self, data: str) -> None:
            if data.strip() or len(stack) > 1:
                stack[-1].append(data)

    builder = Builder(convert_charrefs=True)
    builder.feed(render(text))
    builder.close()
    return root[2:]
