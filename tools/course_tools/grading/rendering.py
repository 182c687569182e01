"""The one renderer of the grading's pages (the feedback pages, reports.py; the class
report, class_report.py). A page is a list of blocks, tuples such as ("para", text) or
("heading", text), written here as Markdown and as a self-contained HTML page.

The kinds every page has are a line of text each: title, heading, subheading and para
(an HTML id after the text where the page links to it). A page hands in its own kinds
(its tables, whose cells differ; its code, lists, notes...) as {kind: function(*content)},
which returns the block's Markdown or HTML; a kind neither shared nor its own is left out.
Every string is escaped here or by the page's own functions: the pages show names and
outputs that students wrote.
"""
import html
import re

# The shared kinds: what stands before the text in Markdown, the element around it in HTML.
MARKDOWN_PREFIXES = {"title": "# ", "heading": "## ", "subheading": "### ", "para": ""}
HTML_ELEMENTS = {"title": "h1", "heading": "h2", "subheading": "h3", "para": "p"}

# What could start markup or raw HTML in a Markdown paragraph or heading.
MARKDOWN_SPECIAL = re.compile(r"([\\`*<>&\[\]#])")


def markdown_text(text):
    """Text shown as itself in Markdown: a name like '<b>bold<i> & "q"' or 'a `b` *c*'
    neither renders as HTML nor as emphasis."""
    return MARKDOWN_SPECIAL.sub(r"\\\1", text)


def markdown_table(header, rows, cell):
    """`header` as given (the page's own words), every row's cells through cell()."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows]
    return "\n".join(lines)


def render_markdown(blocks, own):
    parts = []
    for kind, *content in blocks:
        if kind in MARKDOWN_PREFIXES:
            parts.append(MARKDOWN_PREFIXES[kind] + markdown_text(content[0]))
        elif kind in own:
            parts.append(own[kind](*content))
    return "\n\n".join(parts) + "\n"


def html_table(header, rows, cell, opening="<table>", closing="</table>"):
    """The header escaped, every row's cells through cell() (which writes its <td>)."""
    lines = [opening, "<tr>" + "".join(f"<th>{html.escape(value)}</th>" for value in header) + "</tr>"]
    lines += ["<tr>" + "".join(cell(value) for value in row) + "</tr>" for row in rows]
    return "\n".join(lines + [closing])


def html_text(kind, text, anchor=None):
    element = HTML_ELEMENTS[kind]
    attribute = f' id="{anchor}"' if anchor is not None else ""
    return f"<{element}{attribute}>{html.escape(text)}</{element}>"


def render_html(blocks, own, untitled, style, lang="en", head=()):
    """A self-contained page in `lang`: no external asset, no script. Its title is its
    first block's where that is a title, else `untitled`; `head`: more lines of <head>
    (after the charset)."""
    title = blocks[0][1] if blocks and blocks[0][0] == "title" else untitled
    parts = ["<!DOCTYPE html>", f'<html lang="{lang}">', "<head>", '<meta charset="utf-8">', *head,
             f"<title>{html.escape(title)}</title>", f"<style>{style}</style>", "</head>", "<body>"]
    for kind, *content in blocks:
        if kind in HTML_ELEMENTS:
            parts.append(html_text(kind, *content))
        elif kind in own:
            parts.append(own[kind](*content))
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"
