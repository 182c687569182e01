"""A small SVG writer for the decks' diagrams, and the layout rules it checks as it draws.

Each canvas is at most MAX_WIDTH x MAX_HEIGHT (a slide is 1280 x 720, and the diagram shares
it with a title and at most a line of caption, at its own size: one unit is one pixel of the
slide); no text is smaller than MIN_TEXT (figure labels read from the back of a room: the
decks' legibility test measures them again as the slides show them); every text's estimated
extent lies inside the canvas and, where a box is named, inside that box, and overlaps no
other text.

A diagram is drawn once per language: its function takes `say`, and writes each text as
say("English", "French"). The French text gets French typography (no-break spaces, as
tools/course french-typography puts them in the French pages).
"""
import html
import re

from course_tools.authoring.french_typography import fix_text

MAX_WIDTH, MAX_HEIGHT = 1168, 560
MIN_TEXT = 18
TEXT_GAP = 4  # the least room between two texts side by side
LANGUAGES = ("en", "fr")


class Say:
    """say("English", "French") -> the text in this drawing's language."""

    def __init__(self, lang):
        self.lang = lang

    def __call__(self, english, french):
        if self.lang == "fr":
            return fix_text(french)[0]
        return english

    def number(self, value, decimals=0):
        """A number as this language writes it in prose: 12,345.6 in English, 12 345,6 in
        French (a narrow no-break space between digit groups, a decimal comma)."""
        text = f"{value:,.{decimals}f}"
        if self.lang == "fr":
            return text.replace(",", "\u202f").replace(".", ",")
        return text

    def percent(self, value):
        """A whole percentage: 84% in English, 84 % in French (a no-break space)."""
        return self(f"{value:.0f}%", f"{value:.0f} %")


def diagram(*exercises):
    """Marks a drawing function as a diagram that teaches the ideas of these exercises
    ("01".."25"; none for a course-wide one): the count per exercise is tested."""
    def mark(function):
        function.exercises = tuple(exercises)
        return function
    return mark

# --- one palette for every diagram -------------------------------------------------------
INK, MUTED, PAPER = "#1a1a1a", "#4a4a4a", "#ffffff"
HOST = ("#d8e6f7", "#1f4e89")        # (fill, stroke) of the host: CPU, its memory, PCIe
DEVICE = ("#dcefdc", "#26662a")      # the GPU, its SMs, its schedulers, kernels
THREAD = ("#d7eeeb", "#00665c")      # threads, lanes, warps
REGISTERS = ("#ece1f5", "#5b2a86")   # the memory levels, fastest to slowest
SHARED = ("#fde6cc", "#a34a00")
L2 = ("#f8efbf", "#6e5a00")
HBM = ("#eae1db", "#5a3d2b")
BAD = ("#f9d5d5", "#b71c1c")         # wasted bytes, conflicts
IDLE = ("#eeeeee", "#8a8a8a")        # lanes or values not in use

SANS = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, Consolas, monospace"

# --- a small SVG writer --------------------------------------------------------------------

class LayoutError(Exception):
    """A diagram breaks a layout rule (raised, not asserted: python -O must not skip it)."""


def require(condition, message):
    if not condition:
        raise LayoutError(message)


def number(value):
    """A coordinate as text: at most two decimals, no trailing zeros (deterministic output)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


# Advance widths of DejaVu Sans (the widest of the fonts named), in em, for the estimates.
_NARROW = {c: 0.28 for c in "ijl|'!"}
_NARROW.update({c: 0.32 for c in " .,:;\u00a0"})
_NARROW.update({c: 0.2 for c in "\u202f"})  # the narrow no-break space of French typography
_NARROW.update({c: 0.39 for c in "()[]{}frtI-"})
_NARROW.update({c: 0.34 for c in "/\\"})
_WIDE = {c: 0.98 for c in "mwMW%…—"}
_WIDE.update({c: 0.84 for c in "+=<>×→←≈·~^"})
_NARROW.update({c: 0.56 for c in "«»"})


def text_width(content, size, mono=False, bold=False):
    if mono:
        return len(content) * 0.602 * size
    em = 0.0
    for char in content:
        if char in _NARROW:
            em += _NARROW[char]
        elif char in _WIDE:
            em += _WIDE[char]
        elif char.isdigit():
            em += 0.64
        elif char.isupper():
            em += 0.72
        else:
            em += 0.62
    return em * size * (1.15 if bold else 1.0)


def segments(content):
    """'a `code` b' -> [('a ', False), ('code', True), (' b', False)]: backquotes mark code."""
    parts = content.split("`")
    return [(part, index % 2 == 1) for index, part in enumerate(parts) if part]


class Svg:
    """One diagram: shapes and text in slide pixels, checked against the layout rules."""

    def __init__(self, name, width, height, title):
        require(width <= MAX_WIDTH and height <= MAX_HEIGHT, f"{name}: {width} x {height} is too large")
        self.name, self.width, self.height, self.title = name, width, height, title
        self.items, self.arrows = [], set()
        self.extents = []  # ((left, top, right, bottom), text) of every text drawn

    # shapes
    def rect(self, x, y, w, h, colours, stroke_width=1.5, rx=3, dash=None):
        fill, stroke = colours
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(f'<rect x="{number(x)}" y="{number(y)}" width="{number(w)}" height="{number(h)}" '
                          f'rx="{number(rx)}" fill="{fill}" stroke="{stroke}" '
                          f'stroke-width="{number(stroke_width)}"{extra}/>')

    def line(self, x1, y1, x2, y2, colour=INK, width=1.5, arrow=False, dash=None, both=False):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        if arrow or both:
            self.arrows.add(colour)
            marker = f'url(#arrow-{colour[1:]})'
            extra += f' marker-end="{marker}"' + (f' marker-start="{marker}"' if both else "")
        self.items.append(f'<line x1="{number(x1)}" y1="{number(y1)}" x2="{number(x2)}" y2="{number(y2)}" '
                          f'stroke="{colour}" stroke-width="{number(width)}"{extra}/>')

    def polyline(self, points, colour=INK, width=1.5, arrow=False):
        extra = ""
        if arrow:
            self.arrows.add(colour)
            extra = f' marker-end="url(#arrow-{colour[1:]})"'
        coordinates = " ".join(f"{number(x)},{number(y)}" for x, y in points)
        self.items.append(f'<polyline points="{coordinates}" fill="none" stroke="{colour}" '
                          f'stroke-width="{number(width)}"{extra}/>')

    def circle(self, cx, cy, r, colours, stroke_width=1.5):
        fill, stroke = colours
        self.items.append(f'<circle cx="{number(cx)}" cy="{number(cy)}" r="{number(r)}" fill="{fill}" '
                          f'stroke="{stroke}" stroke-width="{number(stroke_width)}"/>')

    def polygon(self, points, colours, stroke_width=1.5):
        fill, stroke = colours
        coordinates = " ".join(f"{number(x)},{number(y)}" for x, y in points)
        self.items.append(f'<polygon points="{coordinates}" fill="{fill}" stroke="{stroke}" '
                          f'stroke-width="{number(stroke_width)}"/>')

    def path(self, d, colour=INK, width=1.5, fill="none", arrow=False, dash=None):
        """An SVG path (`d` in its own syntax: curves, arcs), e.g. a curved arrow."""
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        if arrow:
            self.arrows.add(colour)
            extra += f' marker-end="url(#arrow-{colour[1:]})"'
        self.items.append(f'<path d="{d}" fill="{fill}" stroke="{colour}" stroke-width="{number(width)}"{extra}/>')

    # text
    def lines(self, x, y, contents, size=18, leading=1.3, **options):
        """Several lines of text, one under the other from baseline y; returns the next baseline."""
        for content in contents:
            self.text(x, y, content, size, **options)
            y += size * leading
        return y

    def text(self, x, y, content, size=16, anchor="start", bold=False, colour=INK, box=None, mono=False):
        """`content` at baseline y; backquoted parts in monospace (all of it with mono=True).
        `box` (x, y, w, h): the text must fit inside it."""
        require(size >= MIN_TEXT, f"{self.name}: text {content!r} at {size} px")
        if mono:
            # SVG collapses runs of plain spaces, and a code line's indentation with them.
            content = re.sub(" {2,}", lambda run: "\u00a0" * len(run.group()), content)
        parts = [(content, True)] if mono else segments(content)
        width = sum(text_width(part, size, code, bold) for part, code in parts)
        left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
        top, bottom = y - 0.76 * size, y + 0.24 * size
        where = f"{self.name}: text {content!r} ({number(left)}..{number(left + width)}, " \
                f"{number(top)}..{number(bottom)})"
        require(left >= 0 and left + width <= self.width and top >= 0 and bottom <= self.height,
                where + f" leaves the canvas {self.width} x {self.height}")
        if box is not None:
            bx, by, bw, bh = box
            require(left >= bx and left + width <= bx + bw and top >= by and bottom <= by + bh,
                    where + f" leaves its box {box}")
        extent = (left - TEXT_GAP, top, left + width + TEXT_GAP, bottom)
        for other, what in self.extents:
            require(extent[2] <= other[0] or other[2] <= extent[0] or extent[3] <= other[1]
                    or other[3] <= extent[1], where + f" overlaps the text {what!r}")
        self.extents.append((extent, content))
        attributes = f'x="{number(x)}" y="{number(y)}" font-size="{number(size)}"'
        if anchor != "start":
            attributes += f' text-anchor="{anchor}"'
        if bold:
            attributes += ' font-weight="bold"'
        if colour != INK:
            attributes += f' fill="{colour}"'
        if len(parts) == 1 and parts[0][1]:
            attributes += f' font-family="{MONO}"'
            body = html.escape(parts[0][0], quote=False)
        elif len(parts) == 1:
            body = html.escape(parts[0][0], quote=False)
        else:
            body = "".join(f'<tspan font-family="{MONO}">{html.escape(p, quote=False)}</tspan>' if code
                           else html.escape(p, quote=False) for p, code in parts)
        self.items.append(f"<text {attributes}>{body}</text>")
        return width

    def label_in(self, x, y, w, h, content, size=16, bold=False, colour=INK, mono=False):
        """Text centred in the box (x, y, w, h), checked to fit in it."""
        self.text(x + w / 2, y + h / 2 + 0.36 * size, content, size, "middle", bold, colour,
                  box=(x, y, w, h), mono=mono)

    def render(self, function):
        """The SVG text; `function` (the drawing function) is named in it, for whoever edits it."""
        defs = "".join(
            f'<marker id="arrow-{c[1:]}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="11" '
            f'markerHeight="11" markerUnits="userSpaceOnUse" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{c}"/></marker>'
            for c in sorted(self.arrows))
        lines = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" height="{self.height}" '
            f'viewBox="0 0 {self.width} {self.height}" font-family="{SANS}" role="img" '
            f'aria-label="{html.escape(self.title)}">',
            f"<!-- Drawn by {function.__module__.replace('.', '/')}.py, {function.__name__}(): edit it there, "
            "then run tools/course diagrams. -->",
            f"<title>{html.escape(self.title, quote=False)}</title>",
        ]
        if defs:
            lines.append(f"<defs>{defs}</defs>")
        lines.append(f'<rect x="0" y="0" width="{self.width}" height="{self.height}" fill="{PAPER}"/>')
        lines += self.items
        lines.append("</svg>")
        return "\n".join(lines) + "\n"


def source_line(svg, content, y=None):
    """The diagram's provenance, in muted text along its bottom (at the smallest size)."""
    svg.text(10, svg.height - 8 if y is None else y, content, size=MIN_TEXT, colour=MUTED)

